"""The JVM's and the harness's own work: stacks no change to the measured code can remove.

A JMH fork or a recorded command spends part of its samples and bytes on things that are not
the workload: the flight recorder itself, loading and linking classes, the JIT compiler
(visible as Java frames only with a Java-written compiler), JMH's runner, its generated stubs
and ``Blackhole``, and reflection set-up. Reports show them as one row "outside the benchmark"
and never as something to optimise, so they are recognised here once, by frame names alone.

A stack is classified by its frames, root first. Class loading and linking, the recorder and
the compiler win wherever they appear on the stack: whoever triggered a class load, the cost
is the JVM's and happens once. JMH's frames count as the harness only when nothing but JDK
frames runs above the last of them (the stub's own loop, ``Blackhole.consume``, the runner
threads); a stub that calls into the benchmark is the benchmark's work.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

Outside = Literal["jfr", "class-loading", "jit", "harness", "reflection", "start-up"]

LABELS: dict[Outside, str] = {
    "jfr": "JFR's own recorder",
    "class-loading": "class loading and linking",
    "jit": "the JIT compiler",
    "harness": "JMH's own infrastructure",
    "reflection": "reflection and method-handle set-up",
    "start-up": "JVM start-up",
}
"""What each kind is, in words a report can print."""

ROW_LABEL = "outside the benchmark (JVM and harness)"
"""The one row all of them are shown as."""

_JFR = ("jdk.jfr.", "jdk.internal.event.", "jdk.management.jfr.")
_CLASS_LOADING = (
    "java.lang.ClassLoader.loadClass",
    "java.lang.ClassLoader.defineClass",
    "java.lang.ClassLoader.findBootstrapClass",
    "java.lang.ClassLoader.findLoadedClass",
    "java.lang.System$2.defineClass",
    "java.lang.invoke.MethodHandleNatives.linkCallSite",
    "java.lang.invoke.MethodHandleNatives.linkMethod",
    "java.lang.invoke.MethodHandleNatives.findMethodHandleType",
    "java.lang.invoke.MethodHandleNatives.linkDynamicConstant",
    "java.lang.invoke.MethodHandleNatives.resolve",
    "java.lang.invoke.BootstrapMethodInvoker.",
    "java.lang.invoke.InnerClassLambdaMetafactory.",
    "java.lang.invoke.LambdaMetafactory.",
    "java.lang.invoke.StringConcatFactory.",
    "jdk.internal.loader.",
    "jdk.internal.misc.Unsafe.defineClass",
    "java.net.URLClassLoader.",
    "java.security.SecureClassLoader.",
    "jdk.internal.module.",
    "java.lang.invoke.LambdaForm.compileToBytecode",
    "java.lang.invoke.InvokerBytecodeGenerator.",
    "jdk.internal.org.objectweb.asm.",
    "java.lang.invoke.ClassSpecializer",
)
_JIT = ("jdk.vm.ci.", "jdk.internal.vm.compiler.", "org.graalvm.compiler.", "jdk.graal.")
_REFLECTION = (
    "jdk.internal.reflect.ReflectionFactory.",
    "jdk.internal.reflect.MethodHandleAccessorFactory.",
    "jdk.internal.reflect.MethodAccessorGenerator.",
    "jdk.internal.reflect.Reflection.",
    "java.lang.Class.getDeclared",
    "java.lang.Class.getMethod",
    "java.lang.Class.getConstructor",
    "java.lang.Class.getField",
    "java.lang.Class.privateGetDeclared",
    "java.lang.Class.getEnumConstantsShared",
    "java.lang.Class.forName",
    "java.lang.invoke.MethodHandles$Lookup.find",
    "java.lang.invoke.MethodHandles$Lookup.unreflect",
    "java.lang.reflect.Proxy.",
    "sun.reflect.annotation.",
    "java.lang.Class.getAnnotation",
    "java.lang.Class.createAnnotationData",
)
_START_UP = ("sun.launcher.LauncherHelper.", "java.lang.System.initPhase", "jdk.internal.misc.VM.")
_JMH = ("org.openjdk.jmh.", "joptsimple.")
_JDK = ("java.", "javax.", "jdk.", "sun.", "com.sun.", "org.openjdk.jmh.", "joptsimple.")


def is_jmh(frame: str) -> bool:
    """A frame of JMH itself (with the option parser it ships) or of the stubs its
    annotation processor generates."""
    return frame.startswith(_JMH) or ".jmh_generated." in frame


def is_jdk(frame: str) -> bool:
    """A frame of the Java platform (or of JMH): never the project's own code."""
    return frame.startswith(_JDK)


def outside(stack: Sequence[str]) -> Outside | None:
    """Which of the JVM's or the harness's own jobs the stack is, or None for the workload.

    ``stack`` is root first, frames spelled ``package.Class.method`` (nested classes with
    ``$``), as :mod:`perfproof.profile.stacks` keeps them.
    """
    if not stack:
        return None
    if any(f.startswith(_JFR) for f in stack):
        return "jfr"
    if any(f.startswith(_CLASS_LOADING) for f in stack):
        return "class-loading"
    if any(f.startswith(_JIT) for f in stack):
        return "jit"
    if any(f.startswith(_REFLECTION) for f in stack):
        return "reflection"
    last_jmh = max((i for i, f in enumerate(stack) if is_jmh(f)), default=-1)
    if last_jmh >= 0 and all(is_jdk(f) for f in stack[last_jmh + 1 :]):
        return "harness"
    if stack[0].startswith(_START_UP) and all(is_jdk(f) for f in stack):
        return "start-up"
    return None
