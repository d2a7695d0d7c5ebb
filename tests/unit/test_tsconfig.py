"""tsconfig.json / jsconfig.json: JSONC, the extends chain, path resolution, ${configDir}."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from prewrite_daemon.languages.typescript.tsconfig import TsConfig, load_tsconfig

if TYPE_CHECKING:
    from collections.abc import Callable


def write(root: Path, files: dict[str, str | dict[str, object]]) -> None:
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content if isinstance(content, str) else json.dumps(content))


def disk_reader(root: Path) -> Callable[[str], str | None]:
    def read(rel: str) -> str | None:
        path = root / rel
        return path.read_text() if path.is_file() else None

    return read


def load(root: Path) -> TsConfig:
    config = load_tsconfig(root, disk_reader(root))
    assert config is not None
    return config


def test_no_config_is_none(tmp_path: Path) -> None:
    assert load_tsconfig(tmp_path, disk_reader(tmp_path)) is None


def test_jsonc_comments_and_trailing_commas(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "tsconfig.json": """{
  // a comment
  "compilerOptions": { "strict": true, /* inline */ "outDir": "dist", },
  "include": ["src",],
}"""
        },
    )
    config = load(tmp_path)
    assert config.error is None
    assert config.options["strict"] is True
    assert config.options["outDir"] == f"{tmp_path}/dist"
    assert config.include == (f"{tmp_path}/src",)
    assert config.exclude is None
    assert config.files is None
    assert config.allow_js is False
    assert config.chain == (tmp_path / "tsconfig.json",)


def test_jsconfig_implies_allow_js(tmp_path: Path) -> None:
    write(tmp_path, {"jsconfig.json": {"compilerOptions": {"checkJs": True}}})
    config = load(tmp_path)
    assert config.path == tmp_path / "jsconfig.json"
    assert config.allow_js is True
    assert config.check_js is True


def test_check_js_implies_allow_js_unless_disabled(tmp_path: Path) -> None:
    write(tmp_path, {"tsconfig.json": {"compilerOptions": {"checkJs": True}}})
    assert load(tmp_path).allow_js is True
    write(tmp_path, {"tsconfig.json": {"compilerOptions": {"checkJs": True, "allowJs": False}}})
    assert load(tmp_path).allow_js is False


def test_extends_chain_into_node_modules_package(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    write(
        tmp_path,
        {
            # found by walking up from the config's directory
            "node_modules/@acme/tsconfig/package.json": {"name": "@acme/tsconfig"},
            "node_modules/@acme/tsconfig/tsconfig.json": {
                "extends": "./strict",
                "compilerOptions": {"target": "es2020", "outDir": "out"},
                "include": ["lib"],
            },
            "node_modules/@acme/tsconfig/strict.json": {
                "compilerOptions": {"strict": True, "target": "es5"}
            },
            "node_modules/base-pkg/package.json": {"tsconfig": "configs/base.json"},
            "node_modules/base-pkg/configs/base.json": {"compilerOptions": {"noEmit": True}},
            "repo/tsconfig.json": {
                "extends": "@acme/tsconfig",
                "compilerOptions": {"target": "es2022"},
            },
        },
    )
    config = load(root)
    assert config.error is None
    assert config.options["strict"] is True
    assert config.options["target"] == "es2022"  # the child wins
    acme = tmp_path / "node_modules/@acme/tsconfig"
    assert config.options["outDir"] == f"{acme}/out"  # relative to the config that wrote it
    assert config.include == (f"{acme}/lib",)
    assert config.chain == (
        root / "tsconfig.json",
        acme / "tsconfig.json",
        acme / "strict.json",
    )
    write(root, {"tsconfig.json": {"extends": "base-pkg"}})
    config = load(root)
    assert config.error is None
    assert config.options["noEmit"] is True
    assert tmp_path / "node_modules/base-pkg/package.json" in config.chain


def test_extends_package_subpath_with_and_without_json(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "node_modules/cfg/node.json": {"compilerOptions": {"module": "nodenext"}},
            "node_modules/cfg/dom/tsconfig.json": {"compilerOptions": {"lib": ["dom"]}},
            "tsconfig.json": {"extends": ["cfg/node", "cfg/dom"]},
        },
    )
    config = load(tmp_path)
    assert config.error is None
    assert config.options == {"module": "nodenext", "lib": ["dom"]}


def test_array_extends_later_wins_and_specs_from_nearest(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "configs/a.json": {
                "compilerOptions": {"target": "es5", "strict": True},
                "include": ["a/**/*"],
                "exclude": ["a/skip"],
            },
            "configs/b.json": {"compilerOptions": {"target": "es2020"}, "include": ["b"]},
            "tsconfig.json": {"extends": ["./configs/a.json", "./configs/b"], "files": ["x.ts"]},
        },
    )
    config = load(tmp_path)
    assert config.error is None
    assert config.options == {"target": "es2020", "strict": True}
    assert config.include == (f"{tmp_path}/configs/b",)
    assert config.exclude == (f"{tmp_path}/configs/a/skip",)
    assert config.files == (f"{tmp_path}/x.ts",)


def test_paths_relative_to_base_url_or_defining_config(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "configs/base.json": {"compilerOptions": {"paths": {"@/*": ["../src/*"]}}},
            "tsconfig.json": {"extends": "./configs/base.json"},
        },
    )
    config = load(tmp_path)
    assert config.paths == {"@/*": (f"{tmp_path}/src/*",)}
    assert config.paths_base == f"{tmp_path}/configs"
    assert config.base_url is None
    write(
        tmp_path,
        {"tsconfig.json": {"extends": "./configs/base.json", "compilerOptions": {"baseUrl": "."}}},
    )
    config = load(tmp_path)
    assert config.base_url == str(tmp_path)
    assert config.paths == {"@/*": (f"{tmp_path.parent}/src/*",)}  # now relative to baseUrl


def test_config_dir_template_names_the_root_config(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "shared/base.json": {
                "compilerOptions": {
                    "outDir": "${configDir}/dist",
                    "typeRoots": ["${configDir}/types", "./types"],
                    "paths": {"~/*": ["${configDir}/src/*"]},
                },
                "include": ["${configDir}/src"],
            },
            "app/tsconfig.json": {"extends": "../shared/base.json"},
        },
    )
    app = tmp_path / "app"
    config = load(app)
    assert config.error is None
    assert config.options["outDir"] == f"{app}/dist"
    assert config.options["typeRoots"] == [f"{app}/types", f"{tmp_path}/shared/types"]
    assert config.paths == {"~/*": (f"{app}/src/*",)}
    assert config.include == (f"{app}/src",)


def test_reads_root_files_through_the_reader(tmp_path: Path) -> None:
    texts = {
        "tsconfig.json": '{"extends": "./base.json"}',
        "base.json": '{"compilerOptions": {"strict": true}}',
    }
    config = load_tsconfig(tmp_path, texts.get)  # nothing on disk
    assert config is not None
    assert config.error is None
    assert config.options == {"strict": True}


def test_errors_pass_through(tmp_path: Path) -> None:
    write(tmp_path, {"tsconfig.json": "{ not json"})
    config = load(tmp_path)
    assert config.error is not None
    assert config.options == {}
    write(
        tmp_path, {"tsconfig.json": {"extends": "./missing", "compilerOptions": {"strict": True}}}
    )
    config = load(tmp_path)
    assert config.error is not None
    assert "missing" in config.error
    assert config.options == {"strict": True}
    write(tmp_path, {"tsconfig.json": {"extends": "./a.json"}, "a.json": {"extends": "./tsconfig"}})
    config = load(tmp_path)
    assert config.error is not None
    assert "circular" in config.error


def test_references(tmp_path: Path) -> None:
    write(
        tmp_path,
        {"tsconfig.json": {"files": [], "references": [{"path": "./pkg"}, {"path": "b.json"}]}},
    )
    assert load(tmp_path).references == (
        tmp_path / "pkg/tsconfig.json",
        tmp_path / "b.json",
    )


TSC = Path(__file__).parents[1] / "toolchains/node_modules/typescript5/bin/tsc"


@pytest.mark.skipif(
    not TSC.exists() or shutil.which("node") is None,
    reason="needs node and tests/toolchains/node_modules/typescript5 (the pinned tsc)",
)
def test_merge_equals_tsc_show_config(tmp_path: Path) -> None:
    acme = "node_modules/@acme/tsconfig"
    write(
        tmp_path,
        {
            f"{acme}/tsconfig.json": {
                "extends": "./strict",
                "compilerOptions": {"target": "es2020", "outDir": "out", "rootDir": "."},
                "include": ["lib"],
            },
            f"{acme}/strict.json": {"compilerOptions": {"strict": True, "target": "es5"}},
            f"{acme}/lib/z.ts": "export {};\n",
            "node_modules/base-pkg/package.json": {"tsconfig": "configs/base.json"},
            "node_modules/base-pkg/configs/base.json": {
                "compilerOptions": {"noEmit": True, "declarationDir": "${configDir}/types"},
                "exclude": ["${configDir}/x", "gen"],
            },
            "repo/tsconfig.json": '{"extends": ["@acme/tsconfig", "base-pkg"], // JSONC\n'
            '"compilerOptions": {"target": "es2022",},}',
        },
    )
    repo = tmp_path / "repo"
    node = shutil.which("node")
    assert node is not None
    shown = json.loads(
        subprocess.run(
            [node, str(TSC), "-p", str(repo), "--showConfig"],
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
        ).stdout
    )
    config = load(repo)

    def absolute(rel: str) -> str:
        return rel if rel.startswith("/") else os.path.normpath(repo / rel)

    assert config.include == tuple(absolute(p) for p in shown["include"])
    assert config.exclude == tuple(absolute(p) for p in shown["exclude"])
    for key in ("outDir", "rootDir", "declarationDir"):
        assert config.options[key] == absolute(shown["compilerOptions"][key]), key
    for key in ("strict", "target", "noEmit"):
        assert config.options[key] == shown["compilerOptions"][key], key
