"""A small documentation site and its Japanese and Spanish translations (``ja/...``,
``es/...``), as a site that ships its translations beside its pages does; the code the pages
name stays in English in every language."""

from __future__ import annotations

from inscoqa.corpus.document import Document

PAGES = {
    "files/read-lines": {
        "en": ("Read a file line by line", "To read a file line by line, open it with `File::open` and wrap "
               "it in a `BufReader`. Then call `lines()` on the reader and handle each line in a loop."),
        "ja": ("ファイルを1行ずつ読む", "ファイルを1行ずつ読むには、`File::open`で開いて`BufReader`で包みます。"
               "次にリーダーの`lines()`を呼び、ループで各行を処理します。"),
        "es": ("Leer un archivo línea por línea", "Para leer un archivo línea por línea, ábrelo con `File::open` "
               "y envuélvelo en un `BufReader`. Luego llama a `lines()` en el lector y procesa cada línea en un bucle."),
    },
    "process/child": {
        "en": ("Run a child process", "Use `Command::new` with the name of the program, add its arguments "
               "and call `output()` to run it and collect what it prints."),
        "ja": ("子プロセスを実行する", "プログラムの名前を指定して`Command::new`を使い、引数を追加してから"
               "`output()`を呼ぶと、実行して出力を受け取れます。"),
        "es": ("Ejecutar un proceso hijo", "Usa `Command::new` con el nombre del programa, añade sus argumentos "
               "y llama a `output()` para ejecutarlo y recoger lo que imprime."),
    },
    "threads/spawn": {
        "en": ("Spawn threads", "Call `thread::spawn` with a closure to start a thread. Keep the handles it "
               "returns and call `join()` on each of them to wait until the threads finish."),
        "ja": ("スレッドを生成する", "クロージャを渡して`thread::spawn`を呼ぶとスレッドが始まります。"
               "返されたハンドルを保持し、それぞれの`join()`を呼んでスレッドの終了を待ちます。"),
        "es": ("Crear hilos", "Llama a `thread::spawn` con una clausura para iniciar un hilo. Guarda los "
               "manejadores que devuelve y llama a `join()` en cada uno para esperar a que los hilos terminen."),
    },
    "testing/unit": {
        "en": ("Write unit tests", "Put the tests in a `tests` module marked with `#[cfg(test)]` and mark each "
               "test function with `#[test]`. Run them with `cargo test`."),
        "ja": ("ユニットテストを書く", "テストは`#[cfg(test)]`を付けた`tests`モジュールに置き、各テスト関数に"
               "`#[test]`を付けます。`cargo test`で実行します。"),
        "es": ("Escribir pruebas unitarias", "Pon las pruebas en un módulo `tests` marcado con `#[cfg(test)]` y "
               "marca cada función de prueba con `#[test]`. Ejecútalas con `cargo test`."),
    },
}


def page_id(path: str, language: str) -> str:
    return f"{path}.md" if language == "en" else f"{language}/{path}.md"


def translated_pages(languages: tuple[str, ...] = ("en", "ja", "es")) -> list[Document]:
    """Each page in each of ``languages``."""
    return [Document(page_id(path, language), title, f"# {title}\n\n{text}\n", {"corpus": "site"})
            for path, versions in PAGES.items() for language in languages
            for title, text in [versions[language]]]
