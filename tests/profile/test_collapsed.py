import pytest

from perfproof.errors import InputError
from perfproof.profile.collapsed import format_alloc, format_cpu, parse_collapsed

CPU = {
    ("a.Main.main", "a.Work.run", "java.util.Arrays.copyOf"): 7,
    ("a.Main.main", "a.Work.run"): 3,
    ("a.Main.main",): 1,
}
ALLOC = {
    (("a.Main.main", "a.Work.run"), "byte[]"): 4096,
    (("a.Main.main", "a.Work.run"), "a.Work$Node"): 64,
}


def test_cpu_round_trip():
    text = format_cpu(CPU)
    assert text.splitlines()[0] == "a.Main.main;a.Work.run;java.util.Arrays.copyOf 7"
    p = parse_collapsed(text, "t")
    assert p.cpu == CPU
    assert p.alloc == {}


def test_alloc_round_trip_keeps_class():
    text = format_alloc(ALLOC)
    assert "a.Main.main;a.Work.run;byte[]_[a] 4096" in text.splitlines()
    p = parse_collapsed(text, "t")
    assert p.alloc == ALLOC
    assert p.cpu == {}


def test_mixed_file_splits_kinds():
    p = parse_collapsed(format_cpu(CPU) + format_alloc(ALLOC), "t")
    assert p.cpu == CPU and p.alloc == ALLOC


def test_async_profiler_spelling_is_normalized():
    text = "java/lang/Thread.run_[j];com/acme/Foo.bar_[i];java/util/HashMap.put_[0] 12\n"
    p = parse_collapsed(text, "t")
    assert p.cpu == {("java.lang.Thread.run", "com.acme.Foo.bar", "java.util.HashMap.put"): 12}


def test_async_profiler_allocation_output_when_asked():
    text = "java/lang/Thread.run;com/acme/Foo.bar;byte[] 2048\ncom/acme/Foo.bar;byte[] 16\n"
    p = parse_collapsed(text, "t", alloc_leaf_is_class=True)
    assert p.alloc == {
        (("java.lang.Thread.run", "com.acme.Foo.bar"), "byte[]"): 2048,
        (("com.acme.Foo.bar",), "byte[]"): 16,
    }


def test_same_stack_twice_is_summed_and_comments_skipped():
    p = parse_collapsed("# comment\na;b 2\n\na;b 3\n", "t")
    assert p.cpu == {("a", "b"): 5}


@pytest.mark.parametrize("text", ["hello world\n", "a;b\n", "a;b -3\n", ""])
def test_bad_lines_name_the_file(text):
    with pytest.raises(InputError, match=r"prof\.txt"):
        parse_collapsed(text, "prof.txt")
