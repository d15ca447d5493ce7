"""A command-line tool's reference: a short page per command, titled with the command alone,
its usage, a one-sentence description and an example (memory built with ``inscoqa memory build
--path``: the real reader, units, embedding model and search). The description of the command
that does what is asked leads, with its page's example; a follow-up that asks how to do another
thing to what the last question named ("How do I load it again …?") is about that thing."""

from __future__ import annotations

from pathlib import Path

from procmem.answerers import AnswerRequest, make_answerer
from tests.procmem.answerers.conftest import memory_from_files


def page(command: str, usage: str, summary: str, description: str, examples: str) -> str:
    return (f"---\ntitle: \"{command}\"\n---\n\n# {command}\n\n```markdown\nUsage:  tool {command} {usage}\n\n"
            f"{summary}\n\nOptions:\n      --help   Print usage\n```\n\n## Description\n\n{description}\n\n"
            f"## Examples\n\n{examples}\n")


PAGES = {
    "rename.md": page("rename", "CONTAINER NEW_NAME", "Rename a container",
                      "The `tool rename` command renames a container.",
                      "```console\n$ tool rename my_box my_new_box\n```"),
    "save.md": page("save", "[OPTIONS] IMAGE", "Save one or more images to a tar archive",
                    "Writes one or more images, with their tags and layers, to a tar archive on the "
                    "standard output, or to a file with the `-o` option.",
                    "### Write an image to a file\n\n```console\n$ tool save -o base.tar base:latest\n```"),
    "load.md": page("load", "[OPTIONS]", "Load an image from a tar archive or STDIN",
                    "Load an image or repository from a tar archive, compressed or not, read from a file "
                    "or from the standard input. It restores both images and tags.",
                    "### Read an image from a file (--input)\n\n```console\n$ tool load --input base.tar\n"
                    "Loaded image: base:latest\n```"),
    "logs.md": page("logs", "[OPTIONS] CONTAINER", "Fetch the logs of a\ncontainer",
                    "The `tool logs` command batch-retrieves the logs present when it runs.",
                    "### Show the last lines (--tail)\n\n```console\n$ tool logs --tail 20 my_box\n```"),
    "api.md": ("# Engine API\n\n## Containers\n\n### Rename a container\n\n`POST /containers/(id)/rename`\n\n"
               "Rename the container `id` to a `new_name`.\n\nQuery parameters:\n\n"
               "- **name** – the new name for the container.\n\n### Get container logs\n\n"
               "`GET /containers/(id)/logs`\n\nGet `stdout` and `stderr` logs from the container `id`.\n\n"
               "Query parameters:\n\n- **follow** – 1/True/true or 0/False/false, keep the stream open. "
               "Default `false`.\n- **tail** – Output this many lines from the end of the logs. Default all.\n"
               "- **since** – UNIX timestamp (integer) to filter logs. Default: 0 (unfiltered)\n\n"
               "### Wait for a container\n\n`POST /containers/(id)/wait`\n\nBlock until the container `id` stops.\n\n"
               "Query parameters:\n\n"
               "- **condition** – the state to wait for: `not-running`, `next-exit` or `removed`.\n\n"
               "### Export an image\n\n"
               "`GET /images/(name)/get`\n\nGet a tarball containing all images and metadata for a repository.\n\n"
               "Query parameters:\n\n- **follow** – 1/True/true or 0/False/false, keep the stream open. "
               "Default `false`.\n- **quiet** – 1/True/true or 0/False/false, print nothing. Default `false`.\n"),
    "setup.md": ("# Set up a development machine\n\n## Start the development container\n\n"
                 "1. Open a terminal on the machine and change into the source folder.\n"
                 "2. Check that the virtual machine is running with `machine status dev`.\n"
                 "3. Build the development image again and start a shell in it with `make shell`.\n"),
}


def steps_of(answer) -> list[str]:
    return [step.rsplit(" [", 1)[0] for step in answer.procedures]


def test_the_command_that_does_what_is_asked_leads_with_its_example(clean_env: Path) -> None:
    answerer = make_answerer("extractive", memory=memory_from_files(clean_env, PAGES))
    answer = answerer.answer(AnswerRequest(history=[], question="How do I rename a container?"))
    assert "Run tool rename my_box my_new_box" in steps_of(answer), answer.procedures
    assert answer.sources[0].doc_id.endswith("rename.md")


def test_the_commands_line_of_what_it_does_leads_as_written(clean_env: Path) -> None:
    """Its example may rank first; the line of what the command does leads all the same, as it
    is written: no call to follow the steps below it."""
    pages = {name: text for name, text in PAGES.items() if name != "api.md"}
    answer = make_answerer("extractive", memory=memory_from_files(clean_env, pages)).answer(
        AnswerRequest(history=[], question="How do I rename a container?"))
    assert answer.answer == "tool rename: Rename a container.", answer.answer


def test_a_commands_usage_line_says_what_it_does_and_its_example_shows_how(clean_env: Path) -> None:
    """The page's usage shows the line of what the command does ("Fetch the logs of a
    container", wrapped), which the API's section for the same thing is not; fetching is a way
    of seeing. Its example comes with it, and the lead keeps the command in lower case."""
    answerer = make_answerer("extractive", memory=memory_from_files(clean_env, PAGES))
    answer = answerer.answer(AnswerRequest(history=[], question="How do I see the logs of a container?"))
    assert answer.sources[0].doc_id.endswith("logs.md"), answer.sources
    steps = steps_of(answer)
    assert "tool logs: Fetch the logs of a container" in steps, steps
    assert any("tool logs --tail 20 my_box" in step for step in steps), steps
    assert not any("1/True/true" in step for step in steps), steps  # the API's parameters are no steps


def test_a_follow_up_asks_of_the_thing_the_question_before_named(clean_env: Path) -> None:
    answerer = make_answerer("extractive", memory=memory_from_files(clean_env, PAGES))
    first = answerer.answer(AnswerRequest(history=[], question="How do I save an image to a tar archive?"))
    assert first.sources[0].doc_id.endswith("save.md"), first.sources  # not the page that loads one
    assert any("tool save -o base.tar base:latest" in step for step in steps_of(first)), first.procedures
    # the command's line of what it does leads, as it is written: no call to follow the steps
    assert first.answer == "tool save: Save one or more images to a tar archive.", first.answer
    follow_up = answerer.answer(AnswerRequest(
        history=[("How do I save an image to a tar archive?", first.said())],
        question="How do I load it again on another machine?"))
    assert follow_up.sources[0].doc_id.endswith("load.md"), follow_up.sources
    assert any("tool load --input base.tar" in step for step in steps_of(follow_up)), follow_up.procedures


def test_a_reference_kept_for_each_version_is_searched_once(clean_env: Path) -> None:
    """The API's page for a later version repeats each call's section with a word changed: a
    search shows one of them, and leaves the place to another page."""
    later = PAGES["api.md"].replace("# Engine API", "# Engine API v2").replace("keep the stream open", "stream")
    memory = memory_from_files(clean_env, {**PAGES, "api-v2.md": later})
    hits = memory.search("Get container logs from the API", k=6, kind="logic_unit")
    headers = [hit.unit.header for hit in hits]
    assert sum(header.startswith("Get container logs") for header in headers) == 1, headers
