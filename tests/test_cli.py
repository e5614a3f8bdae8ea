"""The CLI contract: output shapes and exit codes other tools rely on."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from server.cli import main
from tests.tourcheck import assert_tour

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("algorithm", ["auto", "seed", "warnsdorff", "construct"])
def test_solve_json_finds_a_verified_tour(capsys, algorithm):
    code, out, err = run(capsys, "solve", "5x5", "--algorithm", algorithm, "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["rows"] == 5 and doc["cols"] == 5 and doc["closed"] is False
    assert set(doc["stats"]) == {"nodes", "backtracks", "seconds"}
    assert_tour(5, 5, doc["tour"], start=(0, 0))


def test_solve_closed_from_a_start(capsys):
    code, out, _ = run(capsys, "solve", "6x8", "--start", "2,3", "--closed", "--json")
    assert code == 0
    doc = json.loads(out)
    assert_tour(6, 8, doc["tour"], closed=True, start=(2, 3))


def test_solve_prints_the_board_with_move_numbers(capsys):
    code, out, _ = run(capsys, "solve", "5x5", "--algorithm", "warnsdorff")
    assert code == 0
    grid = [line.split("\t") for line in out.splitlines()[:5]]
    numbers = sorted(int(n) for row in grid for n in row)
    assert numbers == list(range(1, 26))
    assert grid[0][0] == "1"
    assert "open tour of 5x5" in out


def test_no_tour_exits_3_with_reason(capsys):
    code, out, err = run(capsys, "solve", "5x5", "--closed", "--json")
    assert code == 3
    doc = json.loads(out)
    assert doc["tour"] is None and doc["reason"]
    assert doc["reason"] in err


def test_no_open_tour_from_a_minority_square_exits_3(capsys):
    code, _, err = run(capsys, "solve", "5x5", "--start", "0,1")
    assert code == 3 and "knights-tour:" in err


def test_budget_exits_4(capsys):
    code, out, _ = run(capsys, "solve", "8x8", "--algorithm", "seed", "--budget", "1000", "--json")
    assert code == 4
    doc = json.loads(out)
    assert doc["tour"] is None and doc["stats"]["nodes"] <= 1000


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "0x5"],
        ["solve", "1001x3"],
        ["solve", "5x5", "--start", "5,0"],
        ["solve", "5x5", "--start", "a,b"],
        ["solve", "5x5", "--start", "1"],
        ["solve", "axb"],
        ["solve", "5x5x5"],
        ["solve", "5x5", "--budget", "-3"],
        ["solve", "5x5", "--budget", "ten"],
        ["solve", "5x5", "--time-limit", "0"],
        ["solve", "5x5", "--time-limit", "nan"],
        ["solve", "5x5", "--algorithm", "magic"],
        ["hint", "5x5", "--path", "0,0", "0,1"],
        ["hint", "5x5", "--path", "0,0", "1,2", "0,0"],
        ["hint", "5x5", "--path", "0,0", "9,9"],
        ["hint", "5x5", "--path", "0,x"],
        ["hint", "5x5"],
        ["serve", "--lan", "--host", "0.0.0.0"],
        ["serve", "--port", "70000"],
        ["frobnicate"],
        [],
    ],
)
def test_bad_input_exits_2_with_one_line(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("knights-tour: error:")


def test_hint_json_completable_with_witness(capsys):
    code, out, _ = run(capsys, "hint", "5x5", "--path", "0,0", "1,2", "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["verdict"] == "completable"
    assert doc["witness"][0] == doc["next"]
    assert_tour(5, 5, [[0, 0], [1, 2], *doc["witness"]])


def test_hint_json_dead_with_reason(capsys):
    # 0,0 -> 2,1 -> 0,2 -> 1,0: on 5x5, a walk that strands a corner.
    path = ["0,0", "1,2", "0,4", "2,3", "4,4", "3,2", "4,0", "2,1", "0,2", "1,4", "3,3", "4,1"]
    code, out, _ = run(capsys, "hint", "5x5", "--path", *path, "--json")
    doc = json.loads(out)
    assert doc["verdict"] in {"completable", "dead"}
    if doc["verdict"] == "dead":
        assert code == 3 and doc["reason"] and doc["next"] is None and doc["witness"] is None
    else:
        assert code == 0
        assert_tour(5, 5, [list(map(int, p.split(","))) for p in path] + doc["witness"])


def test_console_script_and_module_agree():
    argv = ["solve", "6x6", "--algorithm", "warnsdorff", "--json"]
    script = subprocess.run([BIN / "knights-tour", *argv], capture_output=True, text=True)
    module = subprocess.run(
        [sys.executable, "-m", "server", *argv], capture_output=True, text=True, cwd=ROOT
    )
    assert script.returncode == module.returncode == 0
    assert json.loads(script.stdout)["tour"] == json.loads(module.stdout)["tour"]


def serve_refused(env: dict, port: int = 0, **options) -> subprocess.CompletedProcess:
    """``knights-tour serve --port PORT`` run to its exit: it must refuse to start."""
    return subprocess.run(
        [BIN / "knights-tour", "serve", "--port", str(port)],
        capture_output=True,
        text=True,
        env=env,
        timeout=30,
        **options,
    )


def test_serve_prints_url_serves_dumps_stacks_and_stops_on_sigterm(tmp_path):
    env = {**os.environ, "PORT": "0", "SECRET_KEY": "test"}
    proc = subprocess.Popen(
        [BIN / "knights-tour", "serve"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    try:
        line = proc.stdout.readline()
        assert "http://127.0.0.1:" in line, proc.stderr.read()
        url = line.split()[-1]
        with urllib.request.urlopen(url, timeout=5) as response:
            assert response.status == 200
            assert "马踏棋盘" in response.read().decode()
        proc.send_signal(signal.SIGUSR1)  # every thread's stack on stderr; it goes on serving
        with urllib.request.urlopen(url, timeout=5) as response:
            assert response.status == 200
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=10) == 0
        assert "stopped" in proc.stdout.read()
        stacks = proc.stderr.read()
        assert "most recent call first" in stacks and "serve_forever" in stacks, stacks
    finally:
        proc.kill()


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("RATE_LIMIT_GAMES", "often"),
        ("RATE_LIMIT_CLASS_ROOMS", "3/fortnight"),
        ("RATE_LIMIT_STORAGE", "memcached://cache:11211"),
        ("PROXY_FIX", "yes"),
        ("SOCKETIO_CORS_ALLOWED_ORIGINS", "*"),
        ("PUBLIC_URL", "classroom.local:5000"),
    ],
)
def test_serve_refuses_bad_configuration_in_one_line(tmp_path, key, value):
    env = {**os.environ, key: value, "INSTANCE_PATH": str(tmp_path)}
    proc = serve_refused(env)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("knights-tour: error: bad configuration")


def test_serve_on_a_busy_port_says_why_in_one_line(tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        env = {**os.environ, "INSTANCE_PATH": str(tmp_path), "SECRET_KEY": "test"}
        proc = serve_refused(env, port)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.strip().splitlines() == [
        f"knights-tour: cannot listen on 127.0.0.1:{port}: Address already in use"
    ]


def without_root_powers():
    """In the child before exec: as root, give up reading and writing past permissions
    (Linux capabilities CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH), so a read-only folder
    is read-only to it too."""
    if os.geteuid() != 0:
        return
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (1, 2):
        if libc.prctl(24, capability, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
@pytest.mark.parametrize("secret", [None, "test"], ids=["new-secret-key", "secret-key-set"])
def test_serve_on_a_read_only_instance_says_why_in_one_line(tmp_path, secret):
    """Writing the secret key, or creating the SQLite file, fails: one line, exit 1 (it
    was a traceback of 118 lines)."""
    instance = tmp_path / "instance"
    instance.mkdir()
    instance.chmod(0o555)
    env = {**os.environ, "INSTANCE_PATH": str(instance)}
    env.pop("SECRET_KEY", None)
    env.pop("DATABASE_URL", None)
    if secret:
        env["SECRET_KEY"] = secret
    try:
        proc = serve_refused(
            env, preexec_fn=without_root_powers if sys.platform.startswith("linux") else None
        )
    except subprocess.SubprocessError as err:
        pytest.skip(f"cannot give up root's powers here: {err}")
    finally:
        instance.chmod(0o755)
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 1, proc.stderr
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("knights-tour: cannot start: ")
    assert str(instance) in lines[0] and "INSTANCE_PATH" in lines[0]
    assert proc.stdout == ""


def test_version_names_the_engine(capsys):
    from server.engine import native

    code, out, _ = run(capsys, "--version")
    assert code == 0
    assert out.startswith("knights-tour ") and f"(engine: {native.describe()})" in out


def test_the_python_engine_can_be_forced():
    env = {**os.environ, "KNIGHTS_TOUR_ENGINE": "python"}
    done = subprocess.run(
        [str(BIN / "knights-tour"), "--version"], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0
    assert "engine: python (KNIGHTS_TOUR_ENGINE=python)" in done.stdout
    solved = subprocess.run(
        [str(BIN / "knights-tour"), "solve", "6x6", "--algorithm", "seed", "--json"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert json.loads(solved.stdout)["stats"]["nodes"] == 177_048
