"""Settings: the generated dev secret (atomic, one key for instances started together) and
the refusal of a SECRET_KEY too short to sign anything."""

from __future__ import annotations

import multiprocessing
import os
import stat
import subprocess
import sys

import pytest
from pydantic import ValidationError

from app.settings import MIN_SECRET_LENGTH, PROJECT_ROOT, Settings, SettingsError, get_settings, load_settings

# without the lock, two of three trials end with more than one key (100 trials measured): 20 trials
# miss that bug with a chance of about 1 in 10^9
TRIALS = 20
PROCESSES = 4


@pytest.fixture(autouse=True)
def no_secret_in_the_environment(monkeypatch):
    monkeypatch.delenv("SECRET_KEY", raising=False)


def _start_one(data_dir, barrier, results) -> None:
    barrier.wait()  # all of them read and create the key at the same moment
    try:
        results.put(Settings(data_dir=data_dir, database_url="sqlite://").secret_key)
    except BaseException as exc:  # the parent sees what went wrong, not a hang
        results.put(f"error: {exc!r}")


def test_instances_starting_at_once_on_a_fresh_data_dir_end_with_one_key(tmp_path):
    # fork: real processes that start in milliseconds, so many trials fit; each trial races
    # PROCESSES of them through a barrier on a DATA_DIR that has no key yet
    context = multiprocessing.get_context("fork")
    for trial in range(TRIALS):
        data_dir = tmp_path / f"trial-{trial}"
        barrier = context.Barrier(PROCESSES)
        results = context.Queue()
        processes = [context.Process(target=_start_one, args=(data_dir, barrier, results)) for _ in range(PROCESSES)]
        for process in processes:
            process.start()
        keys = [results.get(timeout=30) for _ in processes]
        for process in processes:
            process.join(10)
            assert process.exitcode == 0
        stored = (data_dir / "secret_key").read_text()
        assert len(stored) >= MIN_SECRET_LENGTH, (trial, stored)
        assert keys == [stored] * PROCESSES, (trial, keys, stored)
        assert stat.S_IMODE((data_dir / "secret_key").stat().st_mode) == 0o600
        assert sorted(p.name for p in data_dir.iterdir()) == ["secret_key", "secret_key.lock"]  # no temporary left


@pytest.mark.parametrize("content", ["", "   \n", "short-key", "x" * (MIN_SECRET_LENGTH - 1)])
def test_an_empty_blank_or_short_key_file_is_replaced_by_a_generated_key(tmp_path, content, caplog):
    (tmp_path / "secret_key").write_text(content)
    key = Settings(data_dir=tmp_path).secret_key
    assert len(key) >= MIN_SECRET_LENGTH and key != content.strip()
    assert (tmp_path / "secret_key").read_text() == key
    assert stat.S_IMODE((tmp_path / "secret_key").stat().st_mode) == 0o600
    assert "replaced by a new one" in caplog.text
    assert Settings(data_dir=tmp_path).secret_key == key  # kept from then on


def test_a_usable_key_file_is_kept_as_it_is(tmp_path):
    (tmp_path / "secret_key").write_text("k" * MIN_SECRET_LENGTH + "\n")
    assert Settings(data_dir=tmp_path).secret_key == "k" * MIN_SECRET_LENGTH


@pytest.mark.parametrize("key", ["a", "y" * (MIN_SECRET_LENGTH - 1)])
def test_a_short_secret_key_is_refused_in_one_line_that_does_not_repeat_it(tmp_path, monkeypatch, key):
    monkeypatch.setenv("SECRET_KEY", key)
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    with pytest.raises(SettingsError) as caught:
        load_settings()
    message = str(caught.value)
    assert message.startswith(f"bad setting SECRET_KEY: must be at least {MIN_SECRET_LENGTH} characters")
    assert "\n" not in message and repr(key) not in message
    assert not (tmp_path / "secret_key").exists()  # no dev key made for a deployment that set one


def test_a_settings_error_never_repeats_the_value(tmp_path):
    with pytest.raises(ValidationError) as caught:
        Settings(data_dir=tmp_path, secret_key="short-but-secret")
    assert "short-but-secret" not in str(caught.value)


def test_create_app_refuses_a_short_secret_key(tmp_path, monkeypatch):
    from app.web.main import create_app

    monkeypatch.setenv("SECRET_KEY", "a")
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    get_settings.cache_clear()
    try:
        with pytest.raises(SettingsError, match="SECRET_KEY: must be at least 32 characters"):
            create_app()
    finally:
        get_settings.cache_clear()


def test_a_key_of_the_minimum_length_is_accepted(tmp_path):
    assert Settings(data_dir=tmp_path, secret_key="z" * MIN_SECRET_LENGTH).secret_key == "z" * MIN_SECRET_LENGTH
    assert "z" * MIN_SECRET_LENGTH not in repr(Settings(data_dir=tmp_path, secret_key="z" * MIN_SECRET_LENGTH))


def test_tretten_serve_refuses_a_short_secret_key_with_one_line_and_status_2(tmp_path):
    env = {**os.environ, "SECRET_KEY": "a", "DATA_DIR": str(tmp_path), "DATABASE_URL": f"sqlite:///{tmp_path / 'db'}"}
    done = subprocess.run([sys.executable, "-m", "app.cli", "serve", "--port", "1"], cwd=PROJECT_ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [done.stderr.strip()]
    assert done.stderr.startswith("tretten: bad setting SECRET_KEY: must be at least 32 characters long (it has 1)")
    assert not (tmp_path / "db").exists()  # refused before migrating anything


def test_threads_leave_room_beside_the_searches():
    defaults = Settings(database_url="sqlite://", secret_key="x" * 40)
    assert defaults.threads > defaults.solver_searches
    with pytest.raises(ValidationError, match="THREADS must be more than SOLVER_SEARCHES"):
        Settings(database_url="sqlite://", secret_key="x" * 40, threads=3, solver_searches=3)


def test_an_instance_runs_a_worker_process_per_core_unless_told(monkeypatch):
    """Python runs one thread at a time per process: one process per core lets an instance use
    the machine (the load floor needs it, docs/performance.md)."""
    monkeypatch.delenv("WEB_CONCURRENCY", raising=False)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2})
    assert Settings(database_url="sqlite://", secret_key="x" * 40).web_concurrency == 3
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(96)))  # a large machine
    assert Settings(database_url="sqlite://", secret_key="x" * 40).web_concurrency == 8
    monkeypatch.setenv("WEB_CONCURRENCY", "1")
    assert Settings(database_url="sqlite://", secret_key="x" * 40).web_concurrency == 1
