package dev.rebound.ui.view;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.commonmark.node.Node;
import org.commonmark.renderer.html.HtmlRenderer;
import org.junit.jupiter.api.Test;

class MarkdownStreamTest {
    private static final HtmlRenderer HTML = HtmlRenderer.builder()
            .extensions(List.of(org.commonmark.ext.gfm.tables.TablesExtension.create()))
            .build();

    private static String reply(int paragraphs) {
        StringBuilder sb = new StringBuilder("# Title\n\n");
        for (int i = 0; i < paragraphs; i++) {
            sb.append("Paragraph ").append(i).append(" with **bold** text.\n\n");
            if (i % 10 == 0) {
                sb.append("- one\n- two\n\n```\ncode ")
                        .append(i)
                        .append("\n\nmore\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n");
            }
        }
        return sb.toString();
    }

    /** Streams {@code text} in pieces of {@code step} characters; returns the settled blocks then the tail, as HTML. */
    private static String streamed(MarkdownStream stream, String text, int step) {
        return streamed(stream, text, step, false);
    }

    /**
     * Streams {@code text} in pieces of {@code step} characters, parsing every piece, or (as the view does) only when
     * {@link MarkdownStream#due} and once more at the end; returns the settled blocks then the tail, as HTML.
     */
    private static String streamed(MarkdownStream stream, String text, int step, boolean whenDue) {
        List<Node> settled = new ArrayList<>();
        List<Node> tail = List.of();
        StringBuilder source = new StringBuilder();
        for (int i = 0; i < text.length(); i += step) {
            source.append(text, i, Math.min(text.length(), i + step));
            if (!whenDue || stream.due(source) || source.length() == text.length()) {
                MarkdownStream.Update update = stream.advance(source);
                settled.addAll(update.settledBlocks());
                tail = update.tail();
            }
        }
        StringBuilder html = new StringBuilder();
        settled.forEach(n -> html.append(HTML.render(n)));
        tail.forEach(n -> html.append(HTML.render(n)));
        return html.toString();
    }

    @Test
    void aStreamedReplyEndsAsTheSameBlocksAsTheWholeText() {
        String text = reply(40);
        MarkdownStream whole = new MarkdownStream();
        StringBuilder expected = new StringBuilder();
        whole.all(text).forEach(n -> expected.append(HTML.render(n)));

        assertThat(streamed(new MarkdownStream(), text, 3)).isEqualTo(expected.toString());
    }

    @Test
    void onlyTheOpenTailIsParsedAgainSoTheWorkGrowsLinearlyWithTheReply() {
        MarkdownStream shortReply = new MarkdownStream();
        String shortText = reply(200);
        streamed(shortReply, shortText, 4);
        MarkdownStream longReply = new MarkdownStream();
        String longText = reply(400);
        streamed(longReply, longText, 4);

        double perCharShort = (double) shortReply.parsedChars() / shortText.length();
        double perCharLong = (double) longReply.parsedChars() / longText.length();
        assertThat(perCharLong).isLessThan(perCharShort * 1.2);
        assertThat(perCharShort).isLessThan(30);
    }

    private static String codeBlock(int chars) {
        StringBuilder sb = new StringBuilder("Here it is:\n\n```java\n");
        for (int line = 0; sb.length() < chars; line++) {
            sb.append("int value").append(line).append(" = ").append(line).append(" * 31; // <b>&amp;</b>\n");
        }
        return sb.append("```\n\nDone.").toString();
    }

    @Test
    void aLongCodeBlockCostsBoundedWorkPerCharacterAndEndsExact() {
        String shortText = codeBlock(100_000);
        String longText = codeBlock(200_000);
        MarkdownStream shortReply = new MarkdownStream();
        MarkdownStream longReply = new MarkdownStream();

        String shortHtml = streamed(shortReply, shortText, 3, true);
        String longHtml = streamed(longReply, longText, 3, true);

        double perCharShort = (double) shortReply.parsedChars() / shortText.length();
        double perCharLong = (double) longReply.parsedChars() / longText.length();
        assertThat(perCharLong).isLessThan(perCharShort * 1.2);
        assertThat(perCharShort).isLessThan(30);
        StringBuilder expected = new StringBuilder();
        new MarkdownStream().all(longText).forEach(n -> expected.append(HTML.render(n)));
        assertThat(longHtml).isEqualTo(expected.toString());
        assertThat(shortHtml).contains("int value0 = 0 * 31;").endsWith("<p>Done.</p>\n");
    }

    @Test
    void aShortOpenBlockIsParsedOnEveryDelta() {
        MarkdownStream stream = new MarkdownStream();
        StringBuilder source = new StringBuilder("```\nshort");

        assertThat(stream.due(source)).isTrue();
        stream.advance(source);
        source.append("er");
        assertThat(stream.due(source)).isTrue();
    }

    @Test
    void aTextShownWholeIsNotRenderedAgainByALaterAdvance() {
        MarkdownStream stream = new MarkdownStream();
        String text = "Partial **reply** before the connection dropped";
        assertThat(stream.all(text)).hasSize(1);

        assertThat(stream.upToDate(text)).isTrue();
        MarkdownStream.Update update = stream.advance(text);

        assertThat(update.settledBlocks()).isEmpty();
        assertThat(update.tail()).isEmpty();
    }
}
