"""A question that names a product whose manual the memory holds is answered from that manual,
not from another product's section for the same task (memory built with ``inscoqa memory build
--path`` from a folder of two products' help, each manual a folder with its start page)."""

from __future__ import annotations

from pathlib import Path

from procmem.answerers import AnswerRequest, make_answerer
from tests.procmem.answerers.conftest import memory_from_files

HELP = {
    "photobox/index.md": """\
# Photobox Manual

Photobox shows your photos and lets you make simple changes to them.
""",
    "photobox/view-mode.md": """\
# View mode

View mode shows one image at a time. The Edit menu holds the operations on it:

- Edit → Rotate: Turns the image a quarter to the left or to the right.
- Edit → Crop: Discards the parts of the image you don't want. Drag the handles on the borders,
  then press the Crop button and save the result.
- Edit → Resize: Changes the size of the image.
""",
    "scanpal/index.md": """\
# Scanpal Manual

Scanpal scans documents and photos from your scanner.
""",
    "scanpal/crop.md": """\
# Cropping a photo

You can crop a photo before or after scanning it, to keep only a part of it.

1. Right-click the scanned photo.
2. Select Crop.
3. Drag the frame over the part of the photo you keep.
""",
}


def test_a_question_that_names_a_product_is_answered_from_its_manual(clean_env: Path) -> None:
    memory = memory_from_files(clean_env, HELP)
    assert {u.meta["manual"] for u in memory.units("logic_unit")} == {"docs/photobox", "docs/scanpal"}
    answer = make_answerer("extractive", memory=memory).answer(AnswerRequest("How do I crop a photo in Photobox?"))
    steps = [step.rsplit(" [", 1)[0] for step in answer.procedures]
    assert any(step.startswith("Edit → Crop: Discards the parts of the image") for step in steps), steps
    assert "Right-click the scanned photo." not in steps, steps
    cited, _ = answer.cited_sources()
    assert cited and all(source.doc_id.startswith("docs/photobox/") for _, source in cited), cited
    # without the product's name, the scanner's steps for cropping a photo answer
    other = make_answerer("extractive", memory=memory).answer(AnswerRequest("How do I crop a photo?"))
    assert "Right-click the scanned photo." in [step.rsplit(" [", 1)[0] for step in other.procedures]


def test_a_follow_up_stays_with_the_product_an_earlier_question_named(clean_env: Path) -> None:
    memory = memory_from_files(clean_env, HELP)
    answer = make_answerer("extractive", memory=memory).answer(AnswerRequest(
        "And how do I crop a photo?", history=[("How do I rotate a photo in Photobox?",
                                                 "Edit → Rotate turns the image a quarter to the left or right.")]))
    steps = [step.rsplit(" [", 1)[0] for step in answer.procedures]
    assert any(step.startswith("Edit → Crop: Discards the parts of the image") for step in steps), steps
    assert "Right-click the scanned photo." not in steps, steps


def test_a_folder_named_for_documentation_names_no_product(clean_env: Path) -> None:
    files = {name.replace("photobox/", "html/"): text for name, text in HELP.items()}
    memory = memory_from_files(clean_env, files)
    answer = make_answerer("extractive", memory=memory).answer(AnswerRequest("How do I crop a photo from the HTML help?"))
    assert "Right-click the scanned photo." in [step.rsplit(" [", 1)[0] for step in answer.procedures]

