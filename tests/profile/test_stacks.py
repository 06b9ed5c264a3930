from perfproof.profile.stacks import (
    focus_frame,
    frame_matches,
    normalize_class,
    normalize_frame,
)


def test_class_descriptors_become_java_names():
    assert normalize_class("[J") == "long[]"
    assert normalize_class("[[B") == "byte[][]"
    assert normalize_class("[Ljava.lang.String;") == "java.lang.String[]"
    assert normalize_class("java.lang.String") == "java.lang.String"


def test_frames_lose_slashes_and_lambda_counters():
    assert normalize_frame("java/util/ArrayList.add") == "java.util.ArrayList.add"
    a = normalize_frame("com.acme.Foo$$Lambda$76+0x00007f44a8042338.370869802.run")
    b = normalize_frame("com.acme.Foo$$Lambda$81/0x0000000800c02a00.run")
    assert a == b == "com.acme.Foo$$Lambda.run"


def test_prefix_matches_whole_package_segments():
    assert frame_matches("com.acme.Foo.bar", ("com.acme",))
    assert frame_matches("com.acme.Foo.bar", ("com.acme.",))
    assert frame_matches("com.acme.Foo$Inner.bar", ("com.acme.Foo",))
    assert not frame_matches("com.acmeish.Foo.bar", ("com.acme",))
    assert not frame_matches("org.other.X.y", ("com.acme",))


def test_a_nested_class_matches_in_either_spelling():
    """A changed method's owner is spelt Outer.Inner, JFR's frame Outer$Inner."""
    jfr = "com.acme.Codecs$Big.write"
    assert frame_matches(jfr, ("com.acme.Codecs.Big.write",))
    assert frame_matches(jfr, ("com.acme.Codecs.Big",))
    assert frame_matches("com.acme.Codecs.Big.write", ("com.acme.Codecs$Big",))
    assert not frame_matches("com.acme.Codecs$BigInt.write", ("com.acme.Codecs.Big",))
    assert not frame_matches(jfr, ("com.acme.Codecs.Big.read",))


def test_focus_frame_is_leaf_most_frame_in_focus():
    stack = (
        "java.lang.Thread.run",
        "com.acme.A.outer",
        "com.acme.B.inner",
        "java.util.Arrays.copyOf",
    )
    assert focus_frame(stack, ("com.acme",)) == "com.acme.B.inner"
    assert focus_frame(stack, ("org.none",)) is None
    assert focus_frame(stack, ()) is None
