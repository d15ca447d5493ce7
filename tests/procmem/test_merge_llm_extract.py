"""Merging near-identical logic units, and LLM extraction's control flow with a scripted model."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from rapidfuzz import fuzz, process

from inscoqa.corpus.document import Document
from procmem.extract.deterministic import extract_rules
from procmem.extract.llm import LLMExtractionSettings
from procmem.extract.pipeline import extract_document
from procmem.merge import (
    MergeGroups,
    _codes,
    _goal_key,
    _key,
    _same_page_kind,
    llm_merge,
    merge_units,
    same_subject,
    similar_pairs,
)
from procmem.units import Chunk, LogicUnit, copies, repeated, same_text
from serving.errors import LLMSchemaError
from serving.scripted import ScriptedLLM

PAGE = "gnome-help/printing-2sided.page"


def revised(doc: Document, doc_id: str, extra: str) -> Document:
    """Another document with the same page plus a note (as a mirror or an edited copy would be)."""
    return dataclasses.replace(doc, doc_id=doc_id, text=doc.text + f"\n\n{extra}\n", meta=dict(doc.meta))


def step_unit(doc: Document) -> LogicUnit:
    return next(u for u in extract_rules(doc).logic_units if u.type == "Step")


def test_near_identical_headers_merge_with_prerequisites_bodies_and_linkers(corpus):
    original = corpus.get(PAGE)
    mirror = revised(original, "gnome-help/mirror/printing-2sided.page",
                     "If two-sided printing is still not offered, see [printer settings](printing-setup).")
    a, b = step_unit(original), step_unit(mirror)
    b.header = b.header.replace("each sheet", "each  sheet").lower()  # near-identical, not equal
    b.prerequisite = "A printer is set up"
    groups = MergeGroups(threshold=92)
    parts = {a.id: a, b.id: b}
    assert groups.update(parts, [a.id, b.id], set()) == 1
    merged = next(iter(groups.merged.values()))
    assert merged.meta["doc_ids"] == [original.doc_id, mirror.doc_id]
    assert merged.meta["merged_from"] == [a.id, b.id]
    assert merged.header == a.header and merged.prerequisite == "A printer is set up"
    assert f"From {original.title}:" in merged.body and "still not offered" in merged.body
    assert {link.target for link in merged.linker} >= {link.target for link in b.linker}
    # the mirror is withdrawn: exactly its part leaves, the original unit stands alone again
    del parts[b.id]
    groups.update(parts, [], {b.id})
    assert not groups.merged and not groups.is_hidden(a.id)


def test_different_headers_do_not_merge(corpus):
    units = [u for u in extract_rules(corpus.get("based-cooking/lasagna.md")).logic_units]
    groups = MergeGroups(threshold=92)
    assert groups.update({u.id: u for u in units}, [u.id for u in units], set()) == 0


@pytest.mark.parametrize("threshold", [92.0, 75.0])
def test_headers_are_compared_only_with_those_of_a_length_that_can_match(corpus, threshold):
    """The length window leaves out only pairs that cannot reach the threshold: the same pairs,
    in the same order, as comparing every header with every other (real officedocs units)."""
    docs = [d for d in corpus.iter_documents() if d.doc_id.startswith("officedocs/Exchange/")][:300]
    units = [u for d in docs for u in extract_rules(d).logic_units]
    expected = []
    for unit_type in {u.type for u in units}:
        same = [u for u in units if u.type == unit_type]
        scores = process.cdist([_key(u) for u in same], [_key(u) for u in same], scorer=fuzz.token_sort_ratio,
                               score_cutoff=threshold, dtype=np.uint8)
        for i, j in zip(*np.nonzero(scores), strict=True):
            x, y = same[i], same[j]
            if (x.meta["doc_id"] != y.meta["doc_id"] and _codes(_key(x)) == _codes(_key(y))
                    and fuzz.token_sort_ratio(_goal_key(x), _goal_key(y)) >= threshold
                    and same_subject(_goal_key(x), _goal_key(y)) and _same_page_kind(x, y, threshold)):
                expected.append((x.id, y.id))
    assert len(units) > 1000 and expected
    assert similar_pairs(units, units, threshold) == expected


def api_unit(doc_id: str, goal: str, title: str) -> LogicUnit:
    return LogicUnit("Step", "", f"{goal} ({title})", f"What {goal} does.",
                     meta={"doc_id": doc_id, "title": title})


def test_headers_alike_only_by_their_document_title_do_not_merge():
    # short section names under one long title: the headers are 92+ alike, the goals are not
    title = "Node-API | Node.js v20.20.2 Documentation"
    units = [api_unit("node/n-api.html", name, title) for name in ("`napi_throw`", "`napi_finalize`")]
    units += [api_unit("node/all.html", "`napi_close`", title)]
    groups = MergeGroups(threshold=92)
    assert groups.update({u.id: u for u in units}, [u.id for u in units], set()) == 0


def test_one_section_name_under_titles_alike_only_in_letters_does_not_merge():
    # "Synopsis (npm-install)" and "Synopsis (npm-uninstall)": headers and goals 92+ alike, the
    # pages are not; titles with the same words in another order are one page's copies
    units = [api_unit(f"cli/{name}.md", "Synopsis", name) for name in ("npm-install", "npm-uninstall")]
    assert not similar_pairs(units, units)
    copies = [api_unit("onedrive/error.md", "Reactivate your subscription", "Error when accessing OneDrive or SharePoint"),
              api_unit("sharepoint/error.md", "Reactivate your subscription", "Error when accessing SharePoint or OneDrive")]
    assert similar_pairs(copies[:1], copies[1:]) == [(copies[0].id, copies[1].id)]


def test_headers_alike_but_for_a_word_in_place_of_another_do_not_merge():
    """A file comparer's "Getting started comparing files" and "... comparing folders" (93.75
    alike) were one unit, so the folder comparison's steps were cited to the files' page; a
    recipe site's "Ingredients for Cheesy Pasta Bake" took in the potato bake's. A word spelt
    otherwise, a word more, or two words written as one still merge."""
    def pair(a: str, b: str) -> list[LogicUnit]:
        return [api_unit("help/a.page", a, "Help"), api_unit("help/b.page", b, "Help")]

    for apart in (("Getting started comparing files", "Getting started comparing folders"),
                  ("Ingredients for Cheesy Pasta Bake", "Ingredients for Cheesy Potatoe Bake")):
        units = pair(*apart)
        assert fuzz.token_sort_ratio(_key(units[0]), _key(units[1])) >= 92
        assert not similar_pairs(units[:1], units[1:]), apart
    for alike in (("Organize your photo folders", "Organise your photo folder"),
                  ("Set up a shared mailbox for the sales team", "Setup a shared mailbox for the sales team"),
                  ("Error when accessing OneDrive or SharePoint", "Error when accessing SharePoint or OneDrive"),
                  ("Install the desktop application", "Install the desktop applications")):
        units = pair(*alike)
        assert similar_pairs(units[:1], units[1:]) == [(units[0].id, units[1].id)], alike


def test_a_section_and_its_translation_do_not_merge():
    """A site's translations keep its code names as headers: the English "`impl Trait`" section
    and the Japanese one are two units; a copy of the English page in the translations' folder
    (a page not yet translated) is the same unit."""
    def unit(doc_id: str, body: str) -> LogicUnit:
        return LogicUnit("Step", "", "`impl Trait`", body, [], {"doc_id": doc_id, "title": "impl Trait"})

    english = unit("trait/impl_trait.html", "`impl Trait` can be used in two places: as the type of an "
                                            "argument and as the type that a function returns.")
    japanese = unit("ja/trait/impl_trait.html", "`impl Trait`は2つの場所で使えます。引数の型として、"
                                                "そして関数が返す型としてです。")
    copy = unit("es/trait/impl_trait.html", english.body)
    assert similar_pairs([english], [japanese, copy]) == [(english.id, copy.id)]


def test_sections_of_one_document_do_not_merge_but_the_same_goal_elsewhere_does():
    twice = [api_unit("guide.html", "Windows", "Install the app"),
             api_unit("guide.html", "Windows", "Install  the app")]
    elsewhere = api_unit("mirror/guide.html", "Windows", "Install the app")
    groups = MergeGroups(threshold=92)
    parts = {u.id: u for u in [*twice, elsewhere]}
    assert groups.update(parts, list(parts), set()) == 1
    merged = next(iter(groups.merged.values()))
    assert merged.meta["doc_ids"] == ["guide.html", "mirror/guide.html"]


def test_llm_merge_uses_the_model_reply_and_falls_back_on_an_invalid_one(corpus):
    a = step_unit(corpus.get(PAGE))
    b = step_unit(revised(corpus.get(PAGE), "gnome-help/copy.page", "Note: duplex units may jam."))
    reply = {"prerequisite": "", "body": "1. Press Ctrl+P. 2. Choose Two-sided.", "linker": [
        {"condition": "the option is disabled", "next": "check the printer", "tag": "MITIGATE"}]}
    llm = ScriptedLLM([reply])
    merged = llm_merge([a, b], llm)
    assert merged.body == reply["body"] and merged.linker[0].tag == "MITIGATE"
    assert merged.meta["merged_from"] == [a.id, b.id]
    assert "Unit 2:" in llm.calls[0].prompt and llm.calls[0].schema is not None
    fallback = llm_merge([a, b], ScriptedLLM([LLMSchemaError("bad", raw="{")]))
    assert fallback.body == merge_units([a, b]).body


UNITS_REPLY = {
    "units": [
        {"type": "Terminology", "header": "IP address", "prerequisite": "",
         "body": "A number that identifies a device on a network.", "linker": []},
        {"type": "Step", "header": "Find your IP address", "prerequisite": "Network settings open",
         "body": "Open Settings, then Network.",
         "linker": [{"condition": "it is not shown", "next": "check the cable", "tag": "CONTINUE"}]},
    ],
    "procedure": {"input": "a connected computer", "output": "Find your IP address",
                  "steps": ["Open Settings", "Click Network"]},
}


def test_llm_extraction_two_stages_for_an_unstructured_document(corpus):
    doc = corpus.get("gnome-help/shell-apps-open.page")
    llm = ScriptedLLM([{"structured_text": "# Start applications\n## Steps\n1. Press Super."}, UNITS_REPLY])
    extraction, failure = extract_document(doc, llm=llm)
    assert failure is None and extraction.method == "llm"
    assert [c.schema is not None for c in llm.calls] == [True, True]
    assert doc.title in llm.calls[0].prompt
    assert "1. Press Super." in llm.calls[1].prompt  # stage 2 reads the reformulation
    assert [u.type for u in extraction.logic_units] == ["Terminology", "Step"]
    assert extraction.logic_units[1].linker[0].condition == "it is not shown"
    assert extraction.procedures[0].steps == ["Open Settings", "Click Network"]
    assert all(u.meta["doc_id"] == doc.doc_id and u.meta["extraction"] == "llm" for u in extraction.units)


def test_structured_documents_do_not_call_the_model(corpus):
    llm = ScriptedLLM([])  # any call would fail the test
    extraction, failure = extract_document(corpus.get(PAGE), llm=llm)
    assert extraction.method == "rules" and failure is None and not llm.calls


def test_invalid_reply_is_a_recorded_failure_and_rule_units_are_kept(corpus):
    doc = corpus.get("gnome-help/shell-apps-open.page")
    llm = ScriptedLLM(["not json at all"])
    extraction, failure = extract_document(doc, llm=llm, settings=LLMExtractionSettings(reformulate=False))
    assert failure is not None and failure.stage == "units" and failure.doc_id == doc.doc_id
    assert "LLMSchemaError" in failure.error
    assert extraction.method == "rules" and extraction.units == extract_rules(doc).units


@pytest.mark.parametrize("bad_unit", [
    {"type": "Step", "header": "   ", "prerequisite": "", "body": "x", "linker": []},
    {"type": "FAQ", "header": "Why", "prerequisite": "", "body": "y",
     "linker": [{"condition": " ", "next": "z", "tag": "CROSS"}]},
])
def test_one_unusable_unit_rejects_the_whole_reply(corpus, bad_unit):
    doc = corpus.get("gnome-help/shell-apps-open.page")
    reply = {**UNITS_REPLY, "units": [UNITS_REPLY["units"][0], bad_unit]}
    extraction, failure = extract_document(doc, llm=ScriptedLLM([reply]),
                                           settings=LLMExtractionSettings(reformulate=False))
    assert failure is not None and "units[1]" in failure.error
    assert extraction.method == "rules"
    assert not any(u.header == "IP address" for u in extraction.logic_units)


def test_with_merging_turned_off_a_removed_part_still_leaves_its_merged_unit(corpus):
    a = step_unit(corpus.get(PAGE))
    b = step_unit(revised(corpus.get(PAGE), "gnome-help/copy.page", "Note."))
    groups = MergeGroups(threshold=92)
    groups.update({a.id: a, b.id: b}, [a.id, b.id], set())
    groups.threshold = 0
    assert groups.update({a.id: a}, [], {b.id}) == 1
    assert not groups.merged and not groups.is_hidden(a.id)


def test_units_that_say_the_same_on_other_pages_are_repeats():
    def option(doc_id: str, title: str, body: str = "* Default: false\n\nSkip the lifecycle scripts.") -> LogicUnit:
        return LogicUnit("Step", "", f"`ignore-scripts` ({title})", body,
                         meta={"doc_id": doc_id, "title": title})

    first = option("cmd/ci.md", "npm-ci")
    again = option("cmd/install.md", "npm-install", "* Default:  false\n\nSkip the  lifecycle scripts.")
    other = option("cmd/run.md", "npm-run", "* Default: true\n\nRun the lifecycle scripts.")
    same_page = option("cmd/ci.md", "npm-ci")
    merged = merge_units([option("cmd/ll.md", "npm-ll"), option("cmd/ls.md", "npm-ls")])
    assert merged.body.startswith("From npm-ll:")
    assert same_text(first) == same_text(again) == same_text(merged)  # title, spacing, source lines aside
    assert repeated([first, again, other, same_page, merged]) == {again.id, merged.id}
    chunks = [Chunk("Skip the lifecycle scripts.", {"doc_id": d}) for d in ("a", "b")]
    assert repeated(chunks) == {chunks[1].id}
    assert not repeated([first, Chunk(first.body, {"doc_id": "x"})])  # another kind of unit


def test_a_section_nearly_the_same_on_another_page_is_a_repeat():
    """An API reference kept whole for each version repeats each call's section with a word or
    two changed; a search shows the first. Sections of the same header that say other things,
    and near copies under other headers, are no repeats."""
    def call(version: str, body: str, header: str = "Get container logs") -> LogicUnit:
        return LogicUnit("Step", "", f"{header} (Engine API {version})", body,
                         meta={"doc_id": f"api/{version}.md", "title": f"Engine API {version}"})

    body = ("`GET /containers/(id or name)/logs`\n\nGet `stdout` and `stderr` logs from the container `id`.\n\n"
            "Query parameters:\n\n- **follow** – 1/True/true or 0/False/false, return stream. Default `false`.\n"
            "- **tail** – Output this many lines at the end of the logs. Default all.\n")
    first = call("v1.18", body)
    later = call("v1.24", body.replace("return stream", "keep the stream open"))
    other = call("v1.25", "`GET /containers/(id)/logs`\n\nRemoved: use the attach endpoint instead.\n")
    renamed = call("v1.26", body, header="Fetch container logs")
    assert repeated([first, later, other, renamed]) == {later.id}
    assert copies(later, first) and not copies(other, first) and not copies(renamed, first)
    assert not copies(first, call("v1.18", body))  # the same page


def test_a_merged_section_read_for_some_of_its_pages_keeps_their_parts():
    """"Page Numbers" of Writer's guide and of Impress's dialog merge; read for the guide, the
    merged unit says what the guide says, not how to number slides."""
    from procmem.units import from_pages

    guide = LogicUnit("Appendix", "", "Page Numbers", "In Writer, a page number is a field.",
                      meta={"doc_id": "swriter/guide/pagenumbers.html", "title": "Page Numbers"})
    dialog = LogicUnit("Appendix", "", "Page Numbers", "To number every slide, choose View - Master Slide.",
                       meta={"doc_id": "simpress/01/page.html", "title": "Page"})
    merged = merge_units([dialog, guide])
    assert from_pages(merged, {"Page Numbers"}).body == "From Page Numbers:\nIn Writer, a page number is a field."
    assert from_pages(merged, {"Page", "Page Numbers"}).body == merged.body
    assert from_pages(merged, {"Fields"}) is merged  # no part of those pages: as it is
    assert from_pages(guide, {"Page"}) is guide  # not merged
