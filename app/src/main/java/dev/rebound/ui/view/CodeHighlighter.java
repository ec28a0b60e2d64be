package dev.rebound.ui.view;

import java.util.ArrayList;
import java.util.List;
import javax.swing.text.Segment;
import org.fife.ui.rsyntaxtextarea.Token;
import org.fife.ui.rsyntaxtextarea.TokenMaker;
import org.fife.ui.rsyntaxtextarea.TokenTypes;

/**
 * Finds where the style of a code block's text changes, one line at a time, carrying the lexer's state from a line to
 * the next (a comment or a string may span lines). So a block that grows at its end is lexed only where it grew: the
 * lines already done are not lexed again.
 *
 * <p>The lexing is RSyntaxTextArea's token makers (JFlex lexers, line-based by design: a line's tokens depend only on
 * the line and the state the previous line ended in). Only their {@code Segment}/{@code Token} API is used: no Swing
 * component is made and the AWT toolkit is not started. A unified diff has no token maker there; its lines are
 * told apart by their first character, as the format defines.
 *
 * <p>Not thread-safe: one per code block, used on one thread.
 */
final class CodeHighlighter {
    /**
     * A change of style at {@code start} (an index into the text given to {@link #line}), lasting until the next
     * change: whitespace does not end a run, so a run is the text between two changes.
     *
     * @param style the style class ({@code tok-keyword}, {@code tok-string}…), or {@code null} for plain text
     */
    record Run(int start, String style) {}

    private final CodeLanguage language;
    private final TokenMaker tokenMaker;
    private final Segment segment = new Segment();
    private int state = TokenTypes.NULL;

    CodeHighlighter(CodeLanguage language) {
        this.language = language;
        this.tokenMaker = language == CodeLanguage.DIFF ? null : language.tokenMaker();
    }

    CodeLanguage language() {
        return language;
    }

    /** Forgets the state carried from earlier lines: the next line is the first of a block. */
    void reset() {
        state = TokenTypes.NULL;
    }

    /**
     * Appends the style changes of the line {@code text[start, end)} (without its line break) to {@code out}, which
     * holds those of the text before it; a change that would repeat the last style is left out.
     *
     * @param commit whether the line is complete: only then is the state it ends in carried to the next line (the
     *     last line of a streaming block is lexed again when it grows)
     */
    void line(char[] text, int start, int end, boolean commit, List<Run> out) {
        if (tokenMaker == null) {
            add(out, start, diffStyle(text, start, end));
            return;
        }
        segment.array = text;
        segment.offset = start;
        segment.count = end - start;
        int last = state;
        for (Token t = tokenMaker.getTokenList(segment, state, 0); t != null; t = t.getNextToken()) {
            int type = t.getType();
            last = type;
            if (t.isPaintable() && type != TokenTypes.WHITESPACE) {
                int standard = type < 0 ? tokenMaker.getClosestStandardTokenTypeForInternalType(type) : type;
                add(out, t.getTextOffset(), styleOf(standard));
            }
        }
        if (commit) {
            state = last;
        }
    }

    /** The style changes of a whole code text (for tests and the benchmark). */
    static List<Run> runs(CodeLanguage language, String code) {
        CodeHighlighter highlighter = new CodeHighlighter(language);
        char[] text = code.toCharArray();
        List<Run> out = new ArrayList<>();
        int lineStart = 0;
        for (int i = 0; i <= text.length; i++) {
            if (i == text.length || text[i] == '\n') {
                highlighter.line(text, lineStart, i, true, out);
                lineStart = i + 1;
            }
        }
        return out;
    }

    private static void add(List<Run> out, int start, String style) {
        if (out.isEmpty()
                ? style == null
                : java.util.Objects.equals(out.getLast().style(), style)) {
            return;
        }
        out.add(new Run(start, style));
    }

    /** The style class of an RSyntaxTextArea token type, or {@code null} for plain text. */
    static String styleOf(int tokenType) {
        return switch (tokenType) {
            case TokenTypes.COMMENT_EOL,
                    TokenTypes.COMMENT_MULTILINE,
                    TokenTypes.COMMENT_DOCUMENTATION,
                    TokenTypes.COMMENT_KEYWORD,
                    TokenTypes.COMMENT_MARKUP,
                    TokenTypes.MARKUP_COMMENT -> "tok-comment";
            case TokenTypes.RESERVED_WORD, TokenTypes.RESERVED_WORD_2 -> "tok-keyword";
            case TokenTypes.FUNCTION -> "tok-function";
            case TokenTypes.LITERAL_BOOLEAN -> "tok-literal";
            case TokenTypes.LITERAL_NUMBER_DECIMAL_INT,
                    TokenTypes.LITERAL_NUMBER_FLOAT,
                    TokenTypes.LITERAL_NUMBER_HEXADECIMAL -> "tok-number";
            case TokenTypes.LITERAL_STRING_DOUBLE_QUOTE,
                    TokenTypes.LITERAL_CHAR,
                    TokenTypes.LITERAL_BACKQUOTE,
                    TokenTypes.ERROR_STRING_DOUBLE,
                    TokenTypes.ERROR_CHAR,
                    TokenTypes.MARKUP_TAG_ATTRIBUTE_VALUE -> "tok-string";
            case TokenTypes.DATA_TYPE -> "tok-type";
            case TokenTypes.VARIABLE, TokenTypes.MARKUP_TAG_ATTRIBUTE -> "tok-variable";
            case TokenTypes.REGEX -> "tok-regex";
            case TokenTypes.ANNOTATION -> "tok-annotation";
            case TokenTypes.PREPROCESSOR -> "tok-preprocessor";
            case TokenTypes.MARKUP_TAG_NAME, TokenTypes.MARKUP_TAG_DELIMITER -> "tok-tag";
            default -> null;
        };
    }

    /** A unified diff's line by its first character: added, removed, hunk header, file header or context. */
    private static String diffStyle(char[] text, int start, int end) {
        if (start == end) {
            return null;
        }
        String head = new String(text, start, Math.min(end - start, 12));
        if (head.startsWith("+++ ") || head.startsWith("--- ")) {
            return "tok-diff-header";
        }
        return switch (text[start]) {
            case '+' -> "tok-inserted";
            case '-' -> "tok-deleted";
            case '@' -> head.startsWith("@@") ? "tok-hunk" : null;
            case '\\' -> "tok-comment";
            case ' ' -> null;
            default -> isDiffHeader(head) ? "tok-diff-header" : null;
        };
    }

    private static boolean isDiffHeader(String head) {
        return head.startsWith("diff ")
                || head.startsWith("index ")
                || head.startsWith("new file")
                || head.startsWith("deleted file")
                || head.startsWith("similarity")
                || head.startsWith("rename ")
                || head.startsWith("old mode")
                || head.startsWith("new mode")
                || head.startsWith("Only in ");
    }
}
