"""``pbnkit validate`` as linters are used: which files it finds, exit statuses, failure
thresholds, counts per code, output for CI (SARIF 2.1.0, GitHub annotations), a settings
file, and the ways a run ends (Ctrl-C, a closed pipe)."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import zipfile

import jsonschema
import pytest
from click.testing import CliRunner

from pbnkit.cli import main
from tests.conftest import REPO, SCHEMAS

#: Dealer 'Q' (TG004, an error) in a game of its own
BAD_DEALER = '[Event "x"]\n[Board "1"]\n[Dealer "Q"]\n'
#: a call in a spelling PBN does not define (AU009, a warning), and nothing worse
WARNING_ONLY = ('[Event "x"]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
                '[Auction "N"]\nP Pass Pass Pass\n')
SARIF_SCHEMA = REPO / "tests" / "data" / "sarif-schema-2.1.0.json"


def run(*args, **kwargs):
    return CliRunner().invoke(main, [str(a) for a in args], **kwargs)


@pytest.fixture
def folder(tmp_path):
    """A folder as people have them: upper-case suffixes, other files, compressed files."""
    (tmp_path / "sub").mkdir()
    (tmp_path / "2H-3H.PBN").write_text(BAD_DEALER)
    (tmp_path / "sub" / "ok.pbn").write_text(WARNING_ONLY)
    (tmp_path / "notes.txt").write_text("not a hand record")
    (tmp_path / "old.pbn.gz").write_bytes(gzip.compress(BAD_DEALER.encode()))
    with zipfile.ZipFile(tmp_path / "week.ZIP", "w") as archive:
        archive.writestr("rounds/r1.pbn", BAD_DEALER)
        archive.writestr("rounds/readme.txt", "not a hand record")
    return tmp_path


def test_directories_are_searched_in_any_case_compressed_files_too(folder):
    result = run("validate", "--output-format", "json", folder)
    paths = [f["path"] for f in json.loads(result.stdout)["files"]]
    assert paths == [str(folder / name) for name in
                     ("2H-3H.PBN", "old.pbn.gz", "sub/ok.pbn", "week.ZIP/rounds/r1.pbn")]
    assert result.exit_code == 1


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_compressed_files_are_read_as_their_contents_under_their_own_names(folder, jobs):
    result = run("validate", "-j", jobs, folder / "old.pbn.gz", folder / "week.ZIP")
    assert result.stdout.splitlines()[:2] == [
        f"{folder / 'old.pbn.gz'}:3:10: TG004 [invalid-seat] dealer 'Q' is not W, N, E or S",
        f"{folder / 'week.ZIP' / 'rounds' / 'r1.pbn'}:3:10: TG004 [invalid-seat] dealer 'Q' "
        "is not W, N, E or S"]


def test_a_damaged_compressed_file_is_exit_two(tmp_path):
    (tmp_path / "bad.zip").write_text("not a zip")
    result = run("validate", tmp_path)
    assert result.exit_code == 2
    assert f"{tmp_path / 'bad.zip'}: cannot read" in result.stderr


def truncated(archive_bytes: bytes) -> bytes:
    """A download cut off halfway: the end of a .zip holds its list of members."""
    return archive_bytes[:len(archive_bytes) // 2]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_truncated_zip_is_one_unreadable_file_and_the_others_are_still_checked(folder, jobs):
    good = (folder / "week.ZIP").read_bytes()
    (folder / "cut.zip").write_bytes(truncated(good))
    result = run("validate", "-j", jobs, folder)
    assert result.exit_code == 2  # a file that cannot be read (docs/cli.md)
    assert result.stderr.count("cut.zip") == 1
    assert f"pbnkit: {folder / 'cut.zip'}: cannot read: a damaged .zip file" in result.stderr
    listed = {line.split(":")[0] for line in result.stdout.splitlines() if ": TG" in line}
    assert listed == {str(folder / name) for name in
                      ("2H-3H.PBN", "old.pbn.gz", "week.ZIP/rounds/r1.pbn")}
    report = json.loads(run("validate", "--output-format", "json", folder).stdout)
    assert [f["path"] for f in report["files"]][0] == str(folder / "cut.zip")
    assert report["summary"]["files"] == 5


def test_a_damaged_member_or_gz_is_exit_two_not_an_internal_error(tmp_path):
    with zipfile.ZipFile(tmp_path / "events.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("a.pbn", BAD_DEALER * 200)
    data = bytearray((tmp_path / "events.zip").read_bytes())
    data[60] ^= 0xFF  # inside the member's compressed bytes; the list of members intact
    (tmp_path / "events.zip").write_bytes(bytes(data))
    (tmp_path / "old.pbn.gz").write_bytes(truncated(gzip.compress(BAD_DEALER.encode() * 200)))
    (tmp_path / "ok.pbn").write_text(WARNING_ONLY)
    result = run("validate", tmp_path)
    assert result.exit_code == 2
    assert [line.split(": ")[1] for line in result.stderr.splitlines()] == [
        str(tmp_path / "events.zip"), str(tmp_path / "old.pbn.gz")]
    assert "AU009" in result.stdout


def test_score_and_convert_stop_at_a_damaged_compressed_file(tmp_path):
    (tmp_path / "cut.pbn.gz").write_bytes(truncated(gzip.compress(BAD_DEALER.encode())))
    for command in (["score"], ["convert", "-o", tmp_path / "out.parquet"]):
        result = run(*command, tmp_path / "cut.pbn.gz")
        assert result.exit_code == 2
        assert f"{tmp_path / 'cut.pbn.gz'}: cannot read: a damaged .gz file" in result.stderr


def test_lin_files_are_among_the_inputs(tmp_path):
    from pbnkit.formats.files import iter_files

    (tmp_path / "a.LIN").write_text("")
    (tmp_path / "b.lin").write_text("")
    assert [p.name for p in iter_files([tmp_path])] == ["a.LIN", "b.lin"]


def test_links_are_followed_once_and_version_control_is_not_searched(tmp_path):
    from pbnkit.formats.files import iter_files

    write(tmp_path / "events" / "a.pbn", BAD_DEALER)
    write(tmp_path / ".git" / "b.pbn", BAD_DEALER)
    (tmp_path / "events" / "loop").symlink_to(tmp_path)  # a link to a parent
    (tmp_path / "linked").symlink_to(tmp_path / "events")
    skipped = []
    found = list(iter_files([tmp_path], skipped=lambda path, why: skipped.append(why)))
    assert found == [tmp_path / "events" / "a.pbn"]
    assert "version control data" in skipped
    assert skipped.count("a link to a directory searched already") == 2


def test_verbose_names_each_file_passed_over_and_why(folder):
    result = run("validate", "-v", folder)
    assert (f"pbnkit: skipped {folder / 'notes.txt'}: not a .pbn, .lin, .pbn.gz, .lin.gz or "
            ".zip file") in result.stderr
    assert (f"pbnkit: skipped {folder / 'week.ZIP' / 'rounds' / 'readme.txt'}: not a .pbn or "
            ".lin file") in result.stderr
    assert "skipped" not in run("validate", folder).stderr


@pytest.mark.parametrize("command", [["validate"], ["score"], ["convert", "-o", "out.jsonl"]])
def test_no_input_files_is_exit_two_in_every_command(tmp_path, command):
    (tmp_path / "only.txt").write_text("x")
    result = run(command[0], tmp_path, *command[1:])
    assert result.exit_code == 2
    assert "no PBN or LIN files found" in result.stderr


@pytest.mark.parametrize("option", ["--select", "--ignore"])
def test_an_unknown_code_is_a_usage_error_with_the_nearest_code(tmp_path, option):
    path = tmp_path / "a.pbn"
    path.write_text(BAD_DEALER)
    result = run("validate", option, "DLOO5", path)
    assert result.exit_code == 2
    assert "'DLOO5' matches no code; did you mean DL005?" in result.stderr


def test_failure_threshold_and_exit_zero(tmp_path):
    warned, bad = tmp_path / "warned.pbn", tmp_path / "bad.pbn"
    warned.write_text(WARNING_ONLY)
    bad.write_text(BAD_DEALER)
    assert run("validate", warned).exit_code == 0
    assert run("validate", "--fail-on", "warning", warned).exit_code == 1
    # Counted even when not listed: the threshold is about what the file holds.
    assert run("validate", "--fail-on", "warning", "--min-severity", "error",
               warned).exit_code == 1
    assert run("validate", "--exit-zero", bad).exit_code == 0


def test_statistics_count_each_code(tmp_path):
    path = tmp_path / "two.pbn"
    path.write_text(BAD_DEALER + "\n" + BAD_DEALER.replace('"1"', '"2"'))
    text = run("validate", "--statistics", path)
    assert text.stdout.splitlines() == [
        "2  TG004  [invalid-seat] A Dealer or Declarer value that is not a seat."]
    counts = json.loads(run("validate", "--statistics", "--output-format", "json", path).stdout)
    assert counts == [{"code": "TG004", "name": "invalid-seat", "count": 2}]
    jsonschema.validate(counts, json.loads((SCHEMAS / "validate-statistics.v1.json").read_text()))


def test_summary_counts_info_when_info_is_listed(tmp_path):
    path = tmp_path / "a.pbn"
    path.write_text('[Event "x"]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
                    '[Wrong "tag"]\n')  # an unknown tag: TG003, info
    listed = run("validate", "--min-severity", "info", path).stdout
    assert listed.splitlines()[-1] == "1 files, 1 games: 0 errors, 0 warnings, 1 info"
    assert run("validate", path).stdout.splitlines()[-1].endswith("0 warnings")


def test_findings_of_a_file_are_listed_in_line_order(tmp_path):
    # The text before the first game is a problem of the file, found after its games.
    path = tmp_path / "a.pbn"
    path.write_text('garbage ]\n\n[Board "1"]\n[Dealer "Q"]\n')
    lines = run("validate", path).stdout.splitlines()[:-1]
    assert [line.split(":")[1] for line in lines] == ["1", "4"]


def test_github_annotations(tmp_path):
    path = tmp_path / "a,b.pbn"  # a comma must be escaped in a property
    path.write_text(BAD_DEALER)
    result = run("validate", "--output-format", "github", path)
    name = str(path).replace(",", "%2C").replace(":", "%3A")
    assert result.stdout == (
        f"::error file={name},line=3,col=10,title=pbnkit (TG004 invalid-seat)::"
        f"{path}:3:10: TG004 [invalid-seat] dealer 'Q' is not W, N, E or S\n")


def test_sarif_output_validates_against_the_sarif_2_1_0_schema(folder, monkeypatch):
    monkeypatch.chdir(folder)
    result = run("validate", "--output-format", "sarif", "--min-severity", "info", ".")
    log = json.loads(result.stdout)
    schema = json.loads(SARIF_SCHEMA.read_text())
    jsonschema.validators.validator_for(schema)(schema).validate(log)
    (sarif_run,) = log["runs"]
    results = sarif_run["results"]
    assert {r["ruleId"] for r in results} >= {"TG004", "AU009"}
    bad = next(r for r in results if r["ruleId"] == "TG004")  # 2H-3H.PBN, the first file
    assert bad["level"] == "error"
    assert bad["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "2H-3H.PBN"}, "region": {"startLine": 3, "startColumn": 10}}
    rules = sarif_run["tool"]["driver"]["rules"]
    assert [rule["id"] for rule in rules] == sorted({r["ruleId"] for r in results})
    assert all(rules[r["ruleIndex"]]["id"] == r["ruleId"] for r in results)


def test_format_is_another_name_for_output_format(tmp_path):
    path = tmp_path / "a.pbn"
    path.write_text(BAD_DEALER)
    assert json.loads(run("validate", "--format", "json", path).stdout)["version"] == 1
    assert json.loads(run("validate", "--format", "sarif", path).stdout)["version"] == "2.1.0"


def test_ctrl_c_is_exit_130_not_findings(tmp_path, monkeypatch):
    import pbnkit.rules.report as report

    path = tmp_path / "a.pbn"
    path.write_text(BAD_DEALER)

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(report, "check_game", interrupted)
    result = run("validate", "-j", "1", path)
    assert result.exit_code == 130
    assert "pbnkit: interrupted" in result.stderr and "Aborted!" not in result.stderr


@pytest.mark.parametrize("args", [["codes"], ["validate", "-j", "1", "many"]])
def test_a_closed_standard_output_ends_the_command_quietly(tmp_path, args):
    many = tmp_path / "many"
    many.mkdir()
    for number in range(200):  # more findings than a pipe holds
        (many / f"{number:03}.pbn").write_text(BAD_DEALER * 20)
    process = subprocess.Popen([sys.executable, "-m", "pbnkit", *args], cwd=tmp_path,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.readline()
    process.stdout.close()
    errors = process.stderr.read()
    process.wait(timeout=120)
    assert errors == b""
    assert process.returncode in (0, 141)  # 141: the reader left before the end


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_settings_are_found_upwards_from_the_current_directory(tmp_path, monkeypatch):
    write(tmp_path / "pbnkit.toml", 'ignore = ["TG004"]\n')
    work = tmp_path / "club" / "week1"
    bad = write(work / "bad.pbn", BAD_DEALER)
    monkeypatch.chdir(work)
    result = run("validate", "-v", bad)
    assert result.exit_code == 0 and "TG004" not in result.stdout
    assert f"pbnkit: settings from {tmp_path / 'pbnkit.toml'}" in result.stderr
    # The command line adds to the ignored codes and replaces the selected ones.
    assert "TG004" not in run("validate", "--select", "TG", bad).stdout


def test_pyproject_table_and_a_pyproject_without_one(tmp_path, monkeypatch):
    write(tmp_path / "pyproject.toml", '[tool.pbnkit]\nselect = ["DL"]\n')
    write(tmp_path / "sub" / "pyproject.toml", '[project]\nname = "other"\n')
    bad = write(tmp_path / "sub" / "bad.pbn", BAD_DEALER)
    monkeypatch.chdir(tmp_path / "sub")
    result = run("validate", bad)
    assert result.exit_code == 0 and "TG004" not in result.stdout  # only DL codes selected


def test_per_file_ignores_and_strict_from_the_settings(tmp_path, monkeypatch):
    write(tmp_path / "pbnkit.toml",
          'strict = true\n[per-file-ignores]\n"robots/*" = ["TG004"]\n"*.PBN" = ["TG1"]\n')
    robot = write(tmp_path / "robots" / "deep" / "bba.pbn", BAD_DEALER)
    club = write(tmp_path / "club.pbn", BAD_DEALER)
    upper = write(tmp_path / "UPPER.PBN", BAD_DEALER)
    monkeypatch.chdir(tmp_path)
    result = run("validate", robot, club, upper)
    assert f"{robot}:3:10: TG004" not in result.stdout
    assert f"{club}:3:10: TG004" in result.stdout
    assert f"{club}:" in result.stdout and "TG101" in result.stdout  # strict: export checks
    assert not any(line.startswith(f"{upper}:") and " TG1" in line
                   for line in result.stdout.splitlines())
    assert "TG101" not in run("validate", "--no-strict", club).stdout


@pytest.mark.parametrize("settings, message", [
    ('selcet = ["TG"]\n', "unknown setting 'selcet'"),
    ('ignore = ["DLOO5"]\n', "'DLOO5' matches no code; did you mean DL005?"),
    ('[per-file-ignores]\n"a/*" = ["XX9"]\n', "per-file-ignores 'a/*'"),
    ('strict = "yes"\n', "strict must be true or false"),
    ("select = [\n", "not valid TOML"),
])
def test_a_bad_settings_file_is_a_usage_error(tmp_path, monkeypatch, settings, message):
    write(tmp_path / "pbnkit.toml", settings)
    bad = write(tmp_path / "a.pbn", BAD_DEALER)
    monkeypatch.chdir(tmp_path)
    result = run("validate", bad)
    assert result.exit_code == 2
    assert message in result.stderr


def test_the_profile_setting_is_the_default_profile_of_score(tmp_path, monkeypatch):
    write(tmp_path / "pbnkit.toml", 'profile = "rubber"\n')
    deal = write(tmp_path / "a.pbn", '[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
                 '[Contract "4S"]\n[Declarer "S"]\n[Result "10"]\n')
    monkeypatch.chdir(tmp_path)
    assert json.loads(run("score", "--format", "json", deal).stdout)["profile"] == "rubber"
    assert json.loads(run("score", "--format", "json", "--profile", "duplicate",
                          deal).stdout)["profile"] == "duplicate"
    write(tmp_path / "pbnkit.toml", 'profile = "bridge"\n')
    assert run("score", deal).exit_code == 2


def test_an_output_under_a_file_says_the_parent_is_a_file(tmp_path):
    pbn = write(tmp_path / "a.pbn", BAD_DEALER)
    blocker = write(tmp_path / "hostname", "not a directory")
    result = run("convert", pbn, "-o", blocker / "x.parquet")
    assert result.exit_code == 2
    assert f"{blocker} is a file, not a directory" in result.stderr


def test_an_unwritable_output_is_named_not_its_temporary_file(tmp_path, monkeypatch):
    import tempfile

    pbn = write(tmp_path / "a.pbn", BAD_DEALER)
    out = tmp_path / "out.jsonl"

    def refused(*args, dir=None, prefix="", suffix=""):  # as in a read-only directory
        raise PermissionError(13, "Permission denied", f"{dir}/{prefix}x1y2{suffix}")

    monkeypatch.setattr(tempfile, "mkstemp", refused)
    monkeypatch.setattr(tempfile, "mkdtemp", refused)
    result = run("convert", "-j", "1", pbn, "-o", out)
    assert result.exit_code == 2
    assert f"cannot write {out}: Permission denied" in result.stderr
    assert ".tmp" not in result.stderr


def test_shell_completion_offers_the_scoring_profiles():
    env = {"_PBNKIT_COMPLETE": "bash_complete", "COMP_WORDS": "pbnkit score --profile ",
           "COMP_CWORD": "3"}
    result = CliRunner().invoke(main, [], env=env, prog_name="pbnkit")
    assert "plain,duplicate" in result.stdout.splitlines()


def test_help_codes_and_docs_point_only_inside_the_repository():
    outside = ("PBN.md", "RULES.md", "../shared")
    texts = [run(*command, "--help").stdout for command in
             ([], ["validate"], ["score"], ["rescore"], ["convert"], ["export"], ["codes"])]
    texts += [run("codes", line.split()[0]).stdout for line in run("codes").stdout.splitlines()]
    texts += [path.read_text() for path in (REPO / "docs").glob("*.md")]
    assert not [text for text in texts if any(name in text for name in outside)]


def test_the_command_starts_without_the_heavy_modules():
    # What `pbnkit --version` and every command load before their work starts: the reader,
    # the rules, scoring, the engines and Arrow come only when a command needs them.
    heavy = ("lark", "pyarrow", "multiprocessing", "pbnkit.pbn", "pbnkit.lin", "pbnkit.model",
             "pbnkit.rules", "pbnkit.scoring", "pbnkit.pipeline", "pbnkit.export")
    script = ("import sys, pbnkit.cli; print(*sorted(m for m in sys.modules if any("
              f"m == h or m.startswith(h + '.') for h in {heavy!r})))")
    loaded = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            check=True, cwd=REPO).stdout.split()
    assert loaded == []


@pytest.mark.parametrize(("given", "expected"), [(None, "1"), ("4", "4")])
def test_arrow_is_imported_with_one_blas_thread_unless_the_user_says(tmp_path, given, expected):
    # pyarrow imports numpy, whose OpenBLAS would start a thread per core, spinning for a
    # tenth of a CPU second: a fifth of a small convert's CPU. A user's own setting stays.
    script = ("import os, sys\nfrom pbnkit.cli import main\ntry:\n"
              f"    main(['convert', '-q', {str(REPO / 'sample_data' / 'team_match.pbn')!r}, "
              f"'-o', {str(tmp_path / 'out.parquet')!r}])\nexcept SystemExit:\n    pass\n"
              "print('pyarrow' in sys.modules, os.environ['OPENBLAS_NUM_THREADS'])")
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if given is not None:
        env["OPENBLAS_NUM_THREADS"] = given
    printed = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                             check=True, cwd=REPO, env=env).stdout.split()
    assert printed == ["True", expected]
    assert (tmp_path / "out.parquet").exists()


@pytest.mark.parametrize("work", ["pbnkit.pipeline.score", "pbnkit.rules.report"])
def test_the_workers_of_validate_and_score_load_no_arrow(work):
    # Arrow is for archives: validate and score read PBN, and a third of their start-up
    # would go to importing it.
    script = f"import sys, {work}; print('pyarrow' in sys.modules)"
    loaded = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            check=True, cwd=REPO).stdout.strip()
    assert loaded == "False"


def test_a_tiny_validate_loads_only_what_checking_a_game_needs(tmp_path):
    # One small file: checked in this process (no pool), plain games read by the fast
    # path (Lark is not even loaded), no Arrow, no templates.
    tiny = tmp_path / "tiny.pbn"
    tiny.write_text('[Event "x"]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n')
    heavy = ("lark", "pyarrow", "jinja2", "multiprocessing", "concurrent.futures",
             "pbnkit.export", "pbnkit.report")
    script = ("import sys\nfrom pbnkit.cli import main\ntry:\n"
              f"    main(['validate', '-q', {str(tiny)!r}])\nexcept SystemExit:\n    pass\n"
              "print(*sorted(m for m in sys.modules if "
              f"any(m == h or m.startswith(h + '.') for h in {heavy!r})))")
    loaded = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            check=True, cwd=REPO).stdout.splitlines()
    assert loaded == ["1 files, 1 games: 0 errors, 0 warnings", ""]


def test_score_without_settings_loads_no_rules(tmp_path):
    # Scoring needs no rules module (they were a tenth of score's start-up), nor the check
    # of the codes a settings file names, and there is none.
    tiny = tmp_path / "tiny.pbn"
    tiny.write_text('[Event "x"]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
                    '[Contract "3NT"]\n[Declarer "S"]\n[Result "9"]\n')
    script = ("import sys\nfrom pbnkit.cli import main\ntry:\n"
              f"    main(['score', '-q', '-j', '1', {str(tiny)!r}])\nexcept SystemExit:\n"
              "    pass\nprint(*sorted(m for m in sys.modules if m == 'pbnkit.codes' "
              "or m.startswith('pbnkit.rules')))")
    printed = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                             check=True, cwd=tmp_path).stdout.splitlines()
    assert "   400" in printed[4] and printed[-1] == ""


NO_PANDAS = ("import sys\n"
             "class NoPandas:\n"
             "    def find_spec(self, name, path=None, target=None):\n"
             "        if name.split('.')[0] == 'pandas':\n"
             "            raise ImportError(name)\n"
             "sys.meta_path.insert(0, NoPandas())\n")


def test_a_conversion_to_one_file_loads_no_arrow_compute_or_dataset(tmp_path):
    # pyarrow.compute and pyarrow.dataset are a fifth of a conversion's start-up, and only
    # reading archives and writing datasets use them.
    tiny = tmp_path / "tiny.pbn"
    tiny.write_text('[Event "x"]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n')
    out = tmp_path / "tiny.parquet"
    # Without pandas: where it is installed (the test extra), pyarrow imports it, and it
    # pyarrow.compute, to look for pandas objects in what pa.array is given.
    script = (NO_PANDAS + "from pbnkit.cli import main\ntry:\n"
              f"    main(['convert', '-q', '--no-check', {str(tiny)!r}, '-o', {str(out)!r}])\n"
              "except SystemExit:\n    pass\n"
              "print(*sorted(m for m in sys.modules if m.startswith('pyarrow.')"
              " and m.split('.')[1] in ('compute', 'dataset')))")
    loaded = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            check=True, cwd=REPO).stdout.split()
    assert out.is_file() and loaded == []


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_missing_dependency_is_said_plainly_not_called_a_bug(tmp_path, jobs):
    # Lark is imported only for a game the fast path cannot read: without it, pbnkit
    # starts and fails there. That is a broken installation: status 2, and what to do,
    # in a worker process too (two files: -j 2 hands them to a pool).
    odd = tmp_path / "odd.pbn"
    odd.write_text('[Event "x"]\n[Board "1"]\n{ unclosed\n[Deal "N:"\n')
    (tmp_path / "odd.lin").write_text("pn|a,b,c,d|md|3SAKQ,,,|\nnot a pair\n")
    script = ("import sys\nclass NoLark:\n    def find_spec(self, name, *args):\n"
              "        if name == 'lark' or name.startswith('lark.'):\n"
              "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
              "sys.meta_path.insert(0, NoLark())\nfrom pbnkit.cli import main\n"
              f"main(['validate', '-j', {jobs!r}, {str(tmp_path)!r}])")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=REPO)
    assert done.returncode == 2
    assert done.stderr == ("pbnkit: the module 'lark', which pbnkit needs, is not installed: "
                           "install pbnkit again (pip install pbnkit)\n")


@pytest.mark.parametrize("glob, path, matched", [
    ("robots/*", "robots/deep/bba.pbn", True),      # * spans directories
    ("robots", "robots/deep/bba.pbn", True),        # a directory above the file
    ("robots/", "robots/bba.pbn", True),
    ("**/bba/*.pbn", "bba/a.pbn", True),            # ** also at the top
    ("**/bba/*.pbn", "x/bba/a.pbn", True),
    ("*.lin", "deep/down/a.lin", True),             # a file's name
    ("./club.pbn", "club.pbn", True),
    ("robots/*", "club/robots.pbn", False),
    ("rob", "robots/a.pbn", False),
])
def test_per_file_globs(tmp_path, glob, path, matched):
    from pbnkit.rules.report import Options

    options = Options(ignore=("AU",), per_file_ignores=((glob, ("TG014",)),), root=str(tmp_path))
    expected = ("AU", "TG014") if matched else ("AU",)
    assert options.ignored_in(str(tmp_path / path)) == expected
