package dev.rebound.ui.view;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CodeHighlighterTest {

    /** The style of the character where {@code token} starts (its first occurrence in {@code code}). */
    private static String styleOf(CodeLanguage language, String code, String token) {
        int at = code.indexOf(token);
        assertThat(at).as("%s is in the sample", token).isNotNegative();
        String style = null;
        for (CodeHighlighter.Run run : CodeHighlighter.runs(language, code)) {
            if (run.start() > at) {
                break;
            }
            style = run.start() <= at ? run.style() : style;
        }
        return style;
    }

    private static void assertStyles(
            CodeLanguage language, String code, String keyword, String string, String comment) {
        assertThat(styleOf(language, code, keyword))
                .as("%s keyword %s", language, keyword)
                .isEqualTo("tok-keyword");
        assertThat(styleOf(language, code, string))
                .as("%s string %s", language, string)
                .isEqualTo("tok-string");
        assertThat(styleOf(language, code, comment))
                .as("%s comment %s", language, comment)
                .isEqualTo("tok-comment");
    }

    @Test
    void javaKeywordsStringsAndComments() {
        assertStyles(
                CodeLanguage.JAVA, "public class A {\n  String s = \"hi\"; // note\n}", "public", "\"hi\"", "// note");
    }

    @Test
    void pythonKeywordsStringsAndComments() {
        assertStyles(CodeLanguage.PYTHON, "def f():\n    return 'hi'  # note\n", "def", "'hi'", "# note");
    }

    @Test
    void javaScriptKeywordsStringsAndComments() {
        assertStyles(CodeLanguage.JAVASCRIPT, "const s = \"hi\"; // note\n", "const", "\"hi\"", "// note");
    }

    @Test
    void typeScriptKeywordsStringsAndComments() {
        assertStyles(CodeLanguage.TYPESCRIPT, "let n: number = 'hi'; /* note */\n", "let", "'hi'", "/* note */");
    }

    @Test
    void jsonKeysStringsLiteralsNumbersAndNull() {
        String json = "{\"name\": \"hi\", \"ok\": true, \"n\": 42, \"none\": null}";
        assertThat(styleOf(CodeLanguage.JSON, json, "\"hi\"")).isEqualTo("tok-string");
        assertThat(styleOf(CodeLanguage.JSON, json, "true")).isEqualTo("tok-literal");
        assertThat(styleOf(CodeLanguage.JSON, json, "42")).isEqualTo("tok-number");
        assertThat(styleOf(CodeLanguage.JSON, json, "null")).isEqualTo("tok-keyword");
        assertThat(styleOf(CodeLanguage.JSON, json, "\"name\"")).as("a key").isEqualTo("tok-variable");
        assertThat(styleOf(CodeLanguage.JSON, json, "{")).isNull();
    }

    @Test
    void shellKeywordsStringsAndComments() {
        assertStyles(CodeLanguage.SHELL, "if [ -n \"$x\" ]; then echo 'hi'; fi # note\n", "if", "'hi'", "# note");
    }

    @Test
    void sqlKeywordsStringsAndComments() {
        assertStyles(CodeLanguage.SQL, "SELECT name FROM t WHERE a = 'hi' -- note\n", "SELECT", "'hi'", "-- note");
    }

    @Test
    void yamlStringsAndCommentsAreStyledAndKeysStayPlain() {
        // RSyntaxTextArea's YAML mode knows strings and comments only; it has no keywords.
        String yaml = "name: \"hi\" # note\nlist:\n  - 'x'\n";
        assertThat(styleOf(CodeLanguage.YAML, yaml, "\"hi\"")).isEqualTo("tok-string");
        assertThat(styleOf(CodeLanguage.YAML, yaml, "'x'")).isEqualTo("tok-string");
        assertThat(styleOf(CodeLanguage.YAML, yaml, "# note")).isEqualTo("tok-comment");
        assertThat(styleOf(CodeLanguage.YAML, yaml, "name")).isNull();
    }

    @Test
    void goKeywordsStringsAndComments() {
        assertStyles(CodeLanguage.GO, "func main() {\n\ts := \"hi\" // note\n}\n", "func", "\"hi\"", "// note");
    }

    @Test
    void rustKeywordsStringsAndComments() {
        assertStyles(CodeLanguage.RUST, "fn main() {\n    let s = \"hi\"; // note\n}\n", "fn", "\"hi\"", "// note");
    }

    @Test
    void cKeywordsStringsAndComments() {
        assertStyles(
                CodeLanguage.C,
                "int main(void) {\n  return puts(\"hi\"); /* note */\n}\n",
                "return",
                "\"hi\"",
                "/* note */");
    }

    @Test
    void cppKeywordsStringsAndComments() {
        assertStyles(
                CodeLanguage.CPP,
                "class A {\n public:\n  const char* s = \"hi\"; // note\n};\n",
                "class",
                "\"hi\"",
                "// note");
    }

    @Test
    void diffLinesByTheirFirstCharacter() {
        String diff = """
                diff --git a/A.java b/A.java
                --- a/A.java
                +++ b/A.java
                @@ -1,2 +1,2 @@
                 context
                -old line
                +new line
                \\ No newline at end of file
                """;
        assertThat(styleOf(CodeLanguage.DIFF, diff, "diff --git")).isEqualTo("tok-diff-header");
        assertThat(styleOf(CodeLanguage.DIFF, diff, "--- a/")).isEqualTo("tok-diff-header");
        assertThat(styleOf(CodeLanguage.DIFF, diff, "+++ b/")).isEqualTo("tok-diff-header");
        assertThat(styleOf(CodeLanguage.DIFF, diff, "@@ -1")).isEqualTo("tok-hunk");
        assertThat(styleOf(CodeLanguage.DIFF, diff, " context")).isNull();
        assertThat(styleOf(CodeLanguage.DIFF, diff, "-old")).isEqualTo("tok-deleted");
        assertThat(styleOf(CodeLanguage.DIFF, diff, "+new")).isEqualTo("tok-inserted");
        assertThat(styleOf(CodeLanguage.DIFF, diff, "\\ No")).isEqualTo("tok-comment");
    }

    @Test
    void aCommentOrStringOpenAtTheEndOfALineGoesOnOnTheNext() {
        String java = "int a; /* one\nstill comment */ int b;";
        assertThat(styleOf(CodeLanguage.JAVA, java, "still")).isEqualTo("tok-comment");
        assertThat(styleOf(CodeLanguage.JAVA, java, "int b")).isEqualTo("tok-type");
        String python = "s = \"\"\"one\nstill string\"\"\"\nx = 1";
        assertThat(styleOf(CodeLanguage.PYTHON, python, "still")).isEqualTo("tok-string");
        assertThat(styleOf(CodeLanguage.PYTHON, python, "x = 1")).isNull();
    }

    @Test
    void anUncommittedLineDoesNotCarryItsStateToTheNext() {
        CodeHighlighter highlighter = new CodeHighlighter(CodeLanguage.JAVA);
        char[] partial = "/* not yet closed".toCharArray();
        highlighter.line(partial, 0, partial.length, false, new java.util.ArrayList<>());
        char[] next = "int x;".toCharArray();
        List<CodeHighlighter.Run> runs = new java.util.ArrayList<>();
        highlighter.line(next, 0, next.length, true, runs);
        assertThat(runs.getFirst().style()).isEqualTo("tok-type");
    }

    @Test
    void whitespaceAndRepeatedStylesDoNotStartNewRuns() {
        List<CodeHighlighter.Run> runs = CodeHighlighter.runs(CodeLanguage.JAVA, "public static final int x;");
        assertThat(runs).extracting(CodeHighlighter.Run::style).containsExactly("tok-keyword", "tok-type", null);
        assertThat(runs).extracting(CodeHighlighter.Run::start).containsExactly(0, 20, 24);
    }

    @ParameterizedTest
    @CsvSource({
        "java, JAVA",
        "Java, JAVA",
        "py, PYTHON",
        "python3, PYTHON",
        "js, JAVASCRIPT",
        "jsx, JAVASCRIPT",
        "ts, TYPESCRIPT",
        "tsx, TYPESCRIPT",
        "json, JSON",
        "sh, SHELL",
        "bash, SHELL",
        "zsh, SHELL",
        "shell, SHELL",
        "console, SHELL",
        "sql, SQL",
        "yml, YAML",
        "yaml, YAML",
        "go, GO",
        "golang, GO",
        "rs, RUST",
        "rust, RUST",
        "c, C",
        "c++, CPP",
        "cpp, CPP",
        "cc, CPP",
        "h, CPP",
        "diff, DIFF",
        "patch, DIFF",
        "'java title=\"A.java\"', JAVA",
        "{.python}, PYTHON",
        "language-go, GO"
    })
    void theFenceInfoNamesTheLanguageByNameOrAlias(String info, CodeLanguage language) {
        assertThat(CodeLanguage.ofInfo(info)).contains(language);
    }

    @ParameterizedTest
    @CsvSource(
            value = {"''", "'   '", "text", "plaintext", "brainfuck", "javaa", "NULL"},
            nullValues = "NULL")
    void anUnknownOrMissingLanguageIsNotGuessed(String info) {
        assertThat(CodeLanguage.ofInfo(info)).isEqualTo(Optional.empty());
    }
}
