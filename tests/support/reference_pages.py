"""Pages of a CLI reference that repeat one option's section word for word (as npm's command
pages repeat each configuration option), and a guide that says how to use the feature."""

from __future__ import annotations

from inscoqa.corpus.document import Document

OPTION = """### `workspace`

* Default:
* Type: String (can be set multiple times)

Enable running a command in the context of the configured workspaces of the current project
while filtering by running only the workspaces defined by this configuration option."""

COMMANDS = {
    "npm-audit": "Submit a description of the dependencies to the registry.",
    "npm-exec": "Run a command from a local or remote package.",
    "npm-fund": "Show which dependencies are looking for funding.",
}


def command_page(name: str, what: str) -> Document:
    text = f"# {name}\n\n## Description\n\n{what}\n\n## Configuration\n\n{OPTION}\n"
    return Document(f"commands/{name}.md", name, text, {"corpus": "cli"})


def reference_pages() -> list[Document]:
    """The command pages (in the order of :data:`COMMANDS`), then the guide."""
    return [command_page(name, what) for name, what in COMMANDS.items()] + [
        Document("using/workspaces.md", "Workspaces", "# Workspaces\n\n## Defining workspaces\n\n"
                 "Workspaces are defined by the `workspaces` property of the package.json file: "
                 "list the folders of the packages of the project there.\n", {"corpus": "cli"})]
