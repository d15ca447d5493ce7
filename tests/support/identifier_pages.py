"""A page of settings named with underscores (``html_logo_url``) whose text names none of their
words, beside a page that shares the question's other words."""

from __future__ import annotations

from inscoqa.corpus.document import Document

SETTINGS = {
    "html_favicon_url": "This form of the `doc` attribute lets you control the favicon of your docs. "
                        "Put `#![doc(html_favicon_url = \"https://example.com/favicon.ico\")]` at the crate root.",
    "html_logo_url": "This form of the `doc` attribute lets you control the image in the upper left hand side "
                     "of the docs. Put `#![doc(html_logo_url = \"https://example.com/brand.png\")]` at the crate root.",
    "html_playground_url": "This form of the `doc` attribute lets you control where the \"run\" buttons on your "
                           "examples send their code. Set it to the address of a playground.",
    "html_root_url": "The `html_root_url` attribute tells rustdoc where it should link to external crates "
                     "in the generated docs. Set it to the address where the crate's docs are published.",
}


def pages() -> list[Document]:
    doc_attribute = "# The doc attribute\n\n" + "".join(f"## `{name}`\n\n{text}\n\n" for name, text in SETTINGS.items())
    cargo_doc = ("# cargo doc\n\nBuild the documentation of the local package and its dependencies, and write "
                 "the generated docs to `target/doc`. Add `--open` to open the generated docs in a browser "
                 "when they are built.\n")
    return [Document("doc-attribute.md", "The doc attribute", doc_attribute, {"corpus": "site"}),
            Document("cargo-doc.md", "cargo doc", cargo_doc, {"corpus": "site"})]
