"""Each tool's command-line grammar, as the CI readers sort its arguments (``commands``): the
options that take a value, the one naming its configuration file, those whose value is a target,
and those that change no verdict (output, caches, reports). Every other option is a *setting*.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Grammar:
    """One tool's command line: options taking a value, which name its configuration or its
    targets, and which change no verdict (output, caches, reports)."""

    takes_value: frozenset[str]
    config: frozenset[str]
    targets: frozenset[str]  # options whose value is a target (mypy's -p/-m)
    benign: frozenset[str]


def _grammar(takes: str, *, config: str, targets: str, benign: str) -> Grammar:
    return Grammar(*(frozenset(s.split()) for s in (takes, config, targets, benign)))


GRAMMARS = {
    "ruff": _grammar(
        "--config --select --extend-select --ignore --extend-ignore --target-version "
        "--line-length --output-format --exclude --extend-exclude --per-file-ignores "
        "--extend-per-file-ignores --fixable --unfixable --extend-fixable --cache-dir "
        "--stdin-filename --range",
        config="--config",
        targets="",
        benign="--fix --no-fix --unsafe-fixes --no-unsafe-fixes --show-fixes --diff --check "
        "--output-format --cache-dir --no-cache --force-exclude --no-force-exclude --quiet -q "
        "--verbose -v --silent -s --exit-zero -e --exit-non-zero-on-fix --exit-non-zero-on-format "
        "--statistics --show-files --respect-gitignore --no-respect-gitignore --stdin-filename "
        "--range --watch -w --fix-only --no-fix-only",
    ),
    "mypy": _grammar(
        "--config-file --python-version --platform --cache-dir --python-executable --exclude "
        "--junit-xml --html-report --txt-report --xml-report --linecount-report "
        "--any-exprs-report --cobertura-xml-report --lineprecision-report --linecoverage-report "
        "--always-true --always-false --custom-typeshed-dir --enable-error-code "
        "--disable-error-code --follow-imports --package-root --output -p --package -m --module "
        "-c --command --shadow-file --soft-error-limit",
        config="--config-file",
        targets="-p --package -m --module",
        benign="--show-error-codes --hide-error-codes --pretty --no-pretty --show-column-numbers "
        "--show-error-context --show-error-end --color-output --no-color-output --error-summary "
        "--no-error-summary --show-absolute-path --show-traceback --tb -v --verbose "
        "--install-types --non-interactive --no-incremental --incremental --cache-dir "
        "--sqlite-cache --cache-fine-grained --skip-cache-mtime-checks --junit-xml "
        "--python-executable --output --html-report --txt-report --xml-report "
        "--linecount-report --any-exprs-report --cobertura-xml-report --lineprecision-report "
        "--linecoverage-report --warn-unused-configs --soft-error-limit --fast-exit",
    ),
    "pyright": _grammar(
        "-p --project --pythonpath --pythonplatform --pythonversion --level -t "
        "--typeshedpath -v --venvpath --verifytypes --threads",
        config="-p --project",
        targets="",
        benign="--outputjson --stats --verbose --pythonpath --dependencies --threads --watch -w",
    ),
    "tsc": _grammar(
        "-p --project --target --module --lib --jsx --outDir --outFile --rootDir "
        "--tsBuildInfoFile --declarationDir",
        config="-p --project",
        targets="",
        benign="--noEmit --pretty --listFiles --extendedDiagnostics --diagnostics --incremental "
        "--tsBuildInfoFile --outDir --outFile --declarationDir --build -b --watch -w",
    ),
    # ty 0.0.104's `ty check --help`: `-c/--config` is one inline TOML setting, not a file;
    # `--project DIR` is where ty looks for its configuration.
    "ty": _grammar(
        "--baseline --project --python --typeshed --extra-search-path --python-version "
        "--python-platform -c --config --config-file --output-format --error --warn --ignore "
        "--exclude --color",
        config="--config-file --project",
        targets="",
        benign="--python --output-format --color --no-progress -v --verbose -vv -vvv -q --quiet "
        "-qq --watch -W --fix --exit-zero --exit-zero-on-warning",
    ),
    # pyrefly 1.5.0's `pyrefly check --help`: `-c/--config FILE`; `-p` is `--preset`, a setting.
    # Options written `--name[=VALUE]` take their value only after `=`, so they are not here.
    "pyrefly": _grammar(
        "-j --threads --project-excludes --extend-project-excludes --color -c --config -o "
        "--output --output-format --debug-info --report-binding-memory --report-trace "
        "--dependency-graph --report-timings --report-glean --glean-stdlib-root --report-scip "
        "--report-scip-project-name --report-scip-project-version --report-pysa "
        "--report-pysa-format --report-demand-tree --only --progress-bar --relative-to "
        "--baseline --baseline-error-level --min-severity -p --preset --search-path "
        "--python-version --python-platform --site-packages-path --site-package-path "
        "--conda-environment --python-interpreter-path --fallback-python-interpreter-name "
        "--typeshed-path --module-names --replace-imports-with-any --ignore-missing-imports "
        "--replace-untyped-imports-with-any --script-command --untyped-def-behavior "
        "--infer-return-types --enabled-ignores --type-ignore-unknown-tag-behavior --error "
        "--warn --ignore --info --recursion-depth-limit --recursion-overflow-handler "
        "--pytorch-efficiency-lints --tensor-shapes",
        config="-c --config",
        targets="",
        benign="-j --threads --color -v --verbose --watch -o --output --output-format "
        "--debug-info --report-binding-memory --report-trace --dependency-graph "
        "--report-timings --report-glean --report-glean-ownership --glean-stdlib-root "
        "--report-scip --report-scip-project-name --report-scip-project-version --report-pysa "
        "--report-pysa-format --report-demand-tree --count-errors --summarize-errors --summary "
        "--progress-bar --relative-to --python-interpreter-path "
        "--fallback-python-interpreter-name --conda-environment",
    ),
    "pytest": _grammar(
        "-k -m -p -c --rootdir -n --maxfail --junitxml", config="-c", targets="", benign=""
    ),
}
