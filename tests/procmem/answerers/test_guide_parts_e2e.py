"""A guide that sets each topic out in labelled parts ("Description:", "Solution:",
"Discussion:", as Apache's mod_rewrite guides do), built into a memory with ``inscoqa memory
build --path`` and answered by the extractive answerer: the real reader, units, embedding model
and search."""

from __future__ import annotations

from pathlib import Path

from procmem.answerers import AnswerRequest, make_answerer
from tests.procmem.answerers.conftest import memory_from_files

GUIDE = """\
<html><head><title>When not to use mod_rewrite</title></head><body>
<h1>When not to use mod_rewrite</h1>
<p>This page describes tasks that other modules do better than mod_rewrite.</p>
<h2>Simple Redirection</h2>
<h3>Description:</h3>
<p>You want to send the visitors of one part of your site to another server.</p>
<h3>Solution:</h3>
<pre>Redirect "/one/" "http://one.example.com/"</pre>
<h3>Discussion:</h3>
<p>A plain redirection needs no regular expression at all.</p>
<h2>Forbidding Image Hotlinking</h2>
<h3>Description:</h3>
<p>"Hotlinking" is the practice of other sites including your images inline in their pages, using
your bandwidth to serve content for someone else's site. You can prevent this without
mod_rewrite.</p>
<h3>Solution:</h3>
<p>Use <code>SetEnvIf</code> with <code>Require</code>:</p>
<pre>SetEnvIf Referer example\\.com localreferer
&lt;FilesMatch "\\.(jpg|png|gif)$"&gt;
    Require env localreferer
&lt;/FilesMatch&gt;</pre>
<h3>Discussion:</h3>
<p>The Referer header is optional and can be spoofed.</p>
</body></html>
"""

LOGS = """\
<html><head><title>Log Files</title></head><body>
<h1>Log Files</h1>
<h2>Access Log</h2>
<p>To log the images that other sites request, add the Referer to the log format:</p>
<pre>LogFormat "%h %{Referer}i" referer</pre>
</body></html>
"""


def test_the_solution_of_a_topic_comes_with_its_description(clean_env: Path) -> None:
    answerer = make_answerer("extractive", memory=memory_from_files(clean_env, {"avoid.html": GUIDE,
                                                                                  "logs.html": LOGS}))
    answer = answerer.answer(AnswerRequest(history=[], question="How do I prevent other sites from hotlinking my "
                                                                "images?"))
    assert any("Require env localreferer" in step for step in answer.procedures), answer.procedures
    assert not any("one.example.com" in step for step in answer.procedures)  # another topic's solution
