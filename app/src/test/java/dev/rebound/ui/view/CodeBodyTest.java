package dev.rebound.ui.view;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import javafx.scene.Node;
import javafx.scene.text.Text;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

class CodeBodyTest {
    private static final String JAVA = """
            /** A class. */
            public class Greeter {
                private final String name = "Ada"; // who
                /* a comment
                   over two lines */
                public String greet() {
                    return "Hello, " + name + '!';
                }
            }""";

    @BeforeAll
    static void toolkit() throws Exception {
        FxToolkit.registerPrimaryStage();
    }

    private static <T> T onFx(Callable<T> call) throws Exception {
        return WaitForAsyncUtils.asyncFx(call).get();
    }

    /** Each run as "style:text" (style "-" for plain), in order. */
    private static List<String> runs(CodeBody body) {
        return body.runs().stream()
                .map(t -> t.getStyleClass().stream()
                                .filter(c -> c.startsWith("tok-"))
                                .findFirst()
                                .orElse("-")
                        + ":" + t.getText())
                .toList();
    }

    /** The style of every character that is not whitespace (runs may be cut differently, colours may not). */
    private static List<String> visibleStyles(CodeBody body) {
        List<String> styles = new java.util.ArrayList<>();
        for (Text run : body.runs()) {
            String style = run.getStyleClass().stream()
                    .filter(c -> c.startsWith("tok-"))
                    .findFirst()
                    .orElse("-");
            run.getText().chars().filter(c -> !Character.isWhitespace(c)).forEach(c -> styles.add(style));
        }
        return styles;
    }

    private static String text(CodeBody body) {
        StringBuilder sb = new StringBuilder();
        body.runs().forEach(t -> sb.append(t.getText()));
        return sb.toString();
    }

    @Test
    void codeStreamedInSmallPiecesEndsWithTheSameColoursAsTheWholeCode() throws Exception {
        CodeBody whole = onFx(() -> {
            CodeBody body = new CodeBody(Optional.of(CodeLanguage.JAVA));
            body.show(JAVA);
            return body;
        });
        CodeBody streamed = onFx(() -> {
            CodeBody body = new CodeBody(Optional.of(CodeLanguage.JAVA));
            for (int end = 1; end <= JAVA.length(); end += 3) {
                body.show(JAVA.substring(0, end));
            }
            body.show(JAVA);
            return body;
        });
        assertThat(text(whole)).isEqualTo(JAVA);
        assertThat(text(streamed)).isEqualTo(JAVA);
        assertThat(runs(whole)).contains("tok-keyword:public class ", "tok-string:\"Ada\"", "tok-function:String ");
        assertThat(runs(whole))
                .anyMatch(r -> r.startsWith("tok-comment:") && r.contains("/* a comment\n       over two lines */"));
        assertThat(visibleStyles(streamed)).isEqualTo(visibleStyles(whole));
    }

    @Test
    void aSelectionHighlightInTheBlockStillStreamingNeitherDropsRunsNorBreaksTheLayoutOfAWideBlock() throws Exception {
        String code = ("String line = \"" + "x".repeat(300) + "\";\n").repeat(3) + "return line;";
        int half = code.length() / 2;
        CodeBody body = onFx(() -> {
            CodeBody b = new CodeBody(Optional.of(CodeLanguage.JAVA));
            b.show(code.substring(0, half));
            // What selecting the block's first characters does: a highlight before the chunk's runs.
            SelectionHighlight.show(b.chunks().getFirst(), 0, 6);
            for (int end = half; end <= code.length(); end += 7) {
                b.show(code.substring(0, end));
            }
            b.show(code);
            // Narrower than the code: the sideways scroll bar is laid out, which reads the code's font.
            b.resize(200, 400);
            b.layout();
            return b;
        });

        assertThat(text(body)).isEqualTo(code);
        assertThat(onFx(() -> body.bar().isVisible())).isTrue();
        assertThat(onFx(() -> SelectionHighlight.range(body.chunks().getFirst())))
                .containsExactly(0, 6);
    }

    @Test
    void aLongBlockIsAColumnOfFlowsOfAtMostChunkLinesEachStreamedOrWhole() throws Exception {
        String code = "int a = 1; /* open\n  still */ String s = \"x\";\n".repeat(75) + "return;";
        CodeBody whole = onFx(() -> {
            CodeBody body = new CodeBody(Optional.of(CodeLanguage.JAVA));
            body.show(code);
            return body;
        });
        CodeBody streamed = onFx(() -> {
            CodeBody body = new CodeBody(Optional.of(CodeLanguage.JAVA));
            for (int end = 1; end <= code.length(); end += 5) {
                body.show(code.substring(0, end));
            }
            body.show(code);
            return body;
        });
        for (CodeBody body : List.of(whole, streamed)) {
            assertThat(text(body)).isEqualTo(code);
            assertThat(body.chunks()).hasSize(3);
            assertThat(body.chunks())
                    .allSatisfy(chunk -> assertThat(chunk.getChildren().stream()
                                    .mapToLong(n -> ((Text) n)
                                            .getText()
                                            .chars()
                                            .filter(c -> c == '\n')
                                            .count())
                                    .sum())
                            .isLessThanOrEqualTo(CodeBody.CHUNK_LINES));
        }
        assertThat(visibleStyles(streamed)).isEqualTo(visibleStyles(whole));
    }

    @Test
    void completeLinesKeepTheirRunsWhenTheCodeGrows() throws Exception {
        onFx(() -> {
            CodeBody body = new CodeBody(Optional.of(CodeLanguage.JAVA));
            body.show("int a = 1;\nint b");
            Node first = body.runs().getFirst();
            int before = body.runs().size();
            body.show("int a = 1;\nint b = 2;\nint c");
            assertThat(body.runs().getFirst()).as("the first line's run, kept").isSameAs(first);
            assertThat(body.runs().size()).isGreaterThan(before);
            assertThat(text(body)).isEqualTo("int a = 1;\nint b = 2;\nint c");
            return null;
        });
    }

    @Test
    void codeThatDoesNotContinueWhatWasShownIsLexedAfresh() throws Exception {
        onFx(() -> {
            CodeBody body = new CodeBody(Optional.of(CodeLanguage.JAVA));
            body.show("/* open\nstill");
            body.show("int x;\nint y;");
            assertThat(runs(body)).first().isEqualTo("tok-type:int ");
            assertThat(text(body)).isEqualTo("int x;\nint y;");
            return null;
        });
    }

    @Test
    void whileABlockIsWrittenLinesPastTheLiveLimitWaitPlainForItsEnd() throws Exception {
        onFx(() -> {
            String line = "public int x = 1; // note\n";
            String code = line.repeat(2 * CodeBody.LIVE_LIMIT / line.length()) + "return;";
            CodeBody body = new CodeBody(Optional.of(CodeLanguage.JAVA));
            for (int end = 200; end < code.length(); end += 200) {
                body.show(code.substring(0, end), false);
            }
            body.show(code, false);
            List<Text> runs = body.runs();
            Text last = runs.getLast();
            assertThat(last.getStyleClass()).noneMatch(c -> c.startsWith("tok-"));
            assertThat(last.getText().length()).as("one plain run").isGreaterThan(CodeBody.LIVE_LIMIT / 2);
            assertThat(text(body)).isEqualTo(code);

            body.show(code, true);
            CodeBody whole = new CodeBody(Optional.of(CodeLanguage.JAVA));
            whole.show(code);
            assertThat(visibleStyles(body)).isEqualTo(visibleStyles(whole));
            assertThat(runs(body).subList(runs(body).size() - 2, runs(body).size()))
                    .containsExactly("tok-keyword:return", "-:;");
            return null;
        });
    }

    @Test
    void codeInNoKnownLanguageIsOnePlainRun() throws Exception {
        onFx(() -> {
            CodeBody body = new CodeBody(Optional.empty());
            body.show("public class A {}");
            assertThat(runs(body)).containsExactly("-:public class A {}");
            return null;
        });
    }

    @Test
    void codeLongerThanTheLimitIsOnePlainRunAndGrowingPastItTurnsPlain() throws Exception {
        onFx(() -> {
            CodeBody body = new CodeBody(Optional.of(CodeLanguage.JAVA));
            String line = "public int x = 1; // " + "x".repeat(60) + "\n";
            StringBuilder code = new StringBuilder();
            while (code.length() + line.length() <= CodeBody.HIGHLIGHT_LIMIT) {
                code.append(line);
            }
            body.show(code.toString());
            assertThat(body.runs().size()).as("highlighted up to the limit").isGreaterThan(1);
            code.append(line);
            body.show(code.toString());
            assertThat(runs(body)).containsExactly("-:" + code);
            return null;
        });
    }

    @Test
    void emptyCodeKeepsOneLineOfHeight() throws Exception {
        onFx(() -> {
            CodeBody body = new CodeBody(Optional.of(CodeLanguage.PYTHON));
            body.show("");
            assertThat(runs(body)).containsExactly("-:");
            return null;
        });
    }
}
