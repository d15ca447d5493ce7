"""``inscoqa config show``: the merged configuration and where each value comes from."""

from __future__ import annotations

import argparse
import dataclasses
import json


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("config", help="inspect the configuration in force")
    commands = parser.add_subparsers(dest="config_command", required=True)
    show = commands.add_parser(
        "show",
        help="print the merged configuration (flags > INSCOQA_* env > inscoqa.toml > defaults)",
    )
    show.add_argument(
        "--section",
        default="serving",
        help="config table holding serving settings, e.g. serving or judge (default: serving)",
    )
    show.add_argument("--json", action="store_true", help="print JSON")
    show.set_defaults(func=cmd_show)


def cmd_show(args: argparse.Namespace) -> int:
    from serving.config import ServingConfig, config_file, config_sources, describe, load_section

    config = load_section(ServingConfig, args.section)
    values = describe(config)
    sources = config_sources(ServingConfig, args.section)
    path = config_file()
    if args.json:
        print(
            json.dumps(
                {
                    "section": args.section,
                    "config_file": str(path) if path else None,
                    "values": values,
                    "sources": sources,
                },
                indent=2,
            )
        )
        return 0
    print(f"[{args.section}]  config file: {path or 'none (inscoqa.toml or $INSCOQA_CONFIG)'}")
    width = max(len(f.name) for f in dataclasses.fields(ServingConfig))
    for name, value in values.items():
        print(f"  {name:<{width}} = {json.dumps(value):<36} {sources[name]}")
    return 0
