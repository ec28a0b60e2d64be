package dev.rebound.ui.view;

import dev.rebound.ui.model.TextSelection;
import java.util.ArrayList;
import java.util.List;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.Labeled;
import javafx.scene.layout.GridPane;
import javafx.scene.text.Text;
import javafx.scene.text.TextFlow;

/**
 * One selectable block of a rendered message: a {@link TextFlow} (a paragraph, heading, list item's line, table cell,
 * code block, prompt). Its characters are counted as the flow lays them out: each {@link Text} child's characters,
 * and one for any other managed child (an embedded link), which is copied as its label. The selection's
 * {@code TextSelection.Spot#block} numbers these in reading order ({@link #in}).
 *
 * @param flow the flow
 * @param before what joins it to the block before it when copied: a tab between table cells of a row, else a newline
 * @param prefix copied before its text when the selection began in an earlier block (a list item's marker), or ""
 */
record TextBlock(TextFlow flow, String before, String prefix) {

    /** The blocks under {@code root}, in reading order (a flow's own children are not searched further). */
    static List<TextBlock> in(Node root) {
        List<TextBlock> blocks = new ArrayList<>();
        if (root != null) {
            collect(root, "", blocks);
        }
        return blocks;
    }

    /** Whether {@code flow} holds the next lines of the code block whose flow comes just before it. */
    private static boolean continuesCode(TextFlow flow) {
        if (!flow.getStyleClass().contains("md-code-flow") || flow.getParent() == null) {
            return false;
        }
        List<Node> siblings = flow.getParent().getChildrenUnmodifiable();
        int at = siblings.indexOf(flow);
        return at > 0 && siblings.get(at - 1).getStyleClass().contains("md-code-flow");
    }

    private static void collect(Node node, String marker, List<TextBlock> out) {
        if (!node.isVisible()) {
            return;
        }
        if (node instanceof TextFlow flow) {
            boolean nextCell = flow.getParent() instanceof GridPane
                    && GridPane.getColumnIndex(flow) != null
                    && GridPane.getColumnIndex(flow) > 0;
            // A code block's lines come in several flows, each ending with its line break: nothing goes between them.
            String before = nextCell ? "\t" : continuesCode(flow) ? "" : "\n";
            out.add(new TextBlock(flow, before, marker.isEmpty() ? "" : marker + " "));
            return;
        }
        if (node instanceof Parent parent) {
            String pending = marker;
            for (Node child : parent.getChildrenUnmodifiable()) {
                if (child.getStyleClass().contains("md-list-marker") && child instanceof Labeled label) {
                    pending = label.getText();
                    continue;
                }
                int before = out.size();
                collect(child, pending, out);
                if (out.size() > before) {
                    pending = "";
                }
            }
        }
    }

    /**
     * Which characters of block {@code index} of part {@code part} the range covers, as {@code {from, to}}, or null
     * when it covers none of its {@code length} characters. A position past the block's end counts as its end.
     */
    static int[] span(TextSelection.Range range, int part, int index, int length) {
        if (range == null || range.isEmpty()) {
            return null;
        }
        TextSelection.Spot start = range.start();
        TextSelection.Spot end = range.end();
        TextSelection.Spot first = new TextSelection.Spot(part, index, 0);
        TextSelection.Spot last = new TextSelection.Spot(part, index, length);
        if (end.compareTo(first) <= 0 || start.compareTo(last) >= 0) {
            return null;
        }
        int from = start.compareTo(first) <= 0 ? 0 : Math.min(start.offset(), length);
        int to = end.compareTo(last) >= 0 ? length : Math.min(end.offset(), length);
        return from < to ? new int[] {from, to} : null;
    }

    /** The number of characters, as the flow's layout counts them. */
    int length() {
        int length = 0;
        for (Node child : flow.getChildren()) {
            if (child instanceof Text text) {
                length += text.getText().length();
            } else if (child.isManaged()) {
                length++;
            }
        }
        return length;
    }

    /** The characters as the layout counts them, an embedded node as U+FFFC (for word and line boundaries). */
    String layoutText() {
        StringBuilder sb = new StringBuilder();
        for (Node child : flow.getChildren()) {
            if (child instanceof Text text) {
                sb.append(text.getText());
            } else if (child.isManaged()) {
                sb.append('\uFFFC');
            }
        }
        return sb.toString();
    }

    /** The plain text of characters {@code from} to {@code to} (layout counts), a link as its label. */
    String copy(int from, int to) {
        StringBuilder sb = new StringBuilder();
        int at = 0;
        for (Node child : flow.getChildren()) {
            if (at >= to) {
                break;
            }
            if (child instanceof Text text) {
                String s = text.getText();
                int a = Math.max(from - at, 0);
                int b = Math.min(to - at, s.length());
                if (a < b) {
                    sb.append(s, a, b);
                }
                at += s.length();
            } else if (child.isManaged()) {
                if (at >= from && child instanceof Labeled label) {
                    sb.append(label.getText());
                }
                at++;
            }
        }
        return sb.toString();
    }
}
