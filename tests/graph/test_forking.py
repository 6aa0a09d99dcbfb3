"""`forking.computed_beside`: a task computed in a forked child while this process takes steps of its own."""

from __future__ import annotations

import os

import pytest

from skillbox.graph.forking import computed_beside


def _walk_like() -> tuple[list, dict]:
    return [("a.py", "python", 3, 1_700_000_000_000_000_000)], {"vendored": ["vendor/"]}


def test_the_childs_result_comes_back_as_plain_data_and_steps_run_here():
    here = os.getpid()
    ran = []
    result = computed_beside(lambda: (os.getpid() != here, _walk_like()), [lambda: ran.append(os.getpid())])
    forked, walked = result
    assert walked == _walk_like()
    assert ran == [here]  # the step ran in this process
    assert forked == hasattr(os, "fork")


def test_steps_stop_once_the_child_is_done():
    """A step taken after the child finished is left for the caller (here: the child is done at once)."""
    import time

    ran = []
    steps = [lambda: time.sleep(0.3), lambda: ran.append("late")]
    assert computed_beside(lambda: 7, steps) == 7
    assert ran == []


def test_without_fork_the_task_runs_here_and_no_step_is_taken(monkeypatch):
    monkeypatch.setenv("SKILLBOX_NO_FORK", "1")
    ran = []
    here = os.getpid()
    assert computed_beside(lambda: os.getpid(), [lambda: ran.append(1)]) == here
    assert ran == []


def test_a_child_that_fails_leaves_the_task_to_this_process():
    here = os.getpid()

    def task():
        if os.getpid() != here:
            raise RuntimeError("the child fails")
        return "done here"

    assert computed_beside(task, []) == "done here"


def test_a_failing_step_stops_the_child_and_raises():
    def step():
        raise KeyError("step")

    with pytest.raises(KeyError):
        computed_beside(lambda: 1, [step])
