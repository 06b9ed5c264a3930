"""The classifier of the JVM's and the harness's own stacks, on stacks as JFR spells them."""

from __future__ import annotations

import pytest

from perfproof.profile.outside import LABELS, outside

STUB = "perfdemo.bench.jmh_generated.ErrorReporterBench_report_jmhTest"
RUNNER = (
    "java.lang.Thread.run",
    "java.util.concurrent.ThreadPoolExecutor$Worker.run",
    "java.util.concurrent.FutureTask.run",
    "org.openjdk.jmh.runner.BenchmarkHandler$BenchmarkTask.call",
    "jdk.internal.reflect.DirectMethodHandleAccessor.invoke",
    "java.lang.reflect.Method.invoke",
    f"{STUB}.report_AverageTime",
    f"{STUB}.report_avgt_jmhStub",
)


@pytest.mark.parametrize(
    ("stack", "kind"),
    [
        (("java.lang.Thread.run", "jdk.jfr.internal.PlatformRecorder.periodicTask"), "jfr"),
        (
            (
                *RUNNER,
                "perfdemo.bench.ErrorReporterBench.report",
                "java.lang.ClassLoader.loadClass",
            ),
            "class-loading",
        ),
        (
            (
                *RUNNER,
                "perfdemo.EventBus.publish",
                "java.lang.invoke.MethodHandleNatives.linkCallSite",
            ),
            "class-loading",
        ),
        (("java.lang.Thread.run", "jdk.vm.ci.hotspot.HotSpotJVMCIRuntime.compile"), "jit"),
        ((*RUNNER, "org.openjdk.jmh.infra.Blackhole.consume"), "harness"),
        (RUNNER, "harness"),
        ((*RUNNER[:4], "org.openjdk.jmh.runner.InfraControl.preSetup"), "harness"),
        ((*RUNNER[:3], "java.lang.Class.getDeclaredMethods"), "reflection"),
        (("sun.launcher.LauncherHelper.checkAndLoadMain", "java.lang.String.intern"), "start-up"),
    ],
)
def test_the_jvm_and_the_harness_are_recognised(stack: tuple[str, ...], kind: str) -> None:
    assert outside(stack) == kind
    assert kind in LABELS


@pytest.mark.parametrize(
    "stack",
    [
        (*RUNNER, "perfdemo.bench.ErrorReporterBench.report", "perfdemo.ErrorReporter.report"),
        # the benchmark's work below JMH, even where it ends in JDK frames
        (*RUNNER, "perfdemo.EventBus.publish", "java.util.stream.ReferencePipeline.collect"),
        # a command's own main thread
        ("com.acme.Main.main", "com.acme.Codec.encode", "java.util.Arrays.copyOf"),
        # a stack that only touches JMH below the project's code is still the project's
        ("com.acme.Main.main", "org.openjdk.jmh.util.Utils.sleep", "com.acme.Cb.run"),
    ],
)
def test_the_workload_is_not_outside(stack: tuple[str, ...]) -> None:
    assert outside(stack) is None


def test_an_empty_stack_is_nobodys() -> None:
    assert outside(()) is None
