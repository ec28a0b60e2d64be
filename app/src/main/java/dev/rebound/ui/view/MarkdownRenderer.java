package dev.rebound.ui.view;

import java.util.ArrayList;
import java.util.List;
import javafx.scene.Node;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.Label;
import javafx.scene.control.Separator;
import javafx.scene.layout.ColumnConstraints;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.scene.text.Text;
import javafx.scene.text.TextFlow;
import org.commonmark.ext.gfm.tables.TableBlock;
import org.commonmark.ext.gfm.tables.TableCell;
import org.commonmark.ext.gfm.tables.TableHead;
import org.commonmark.node.BlockQuote;
import org.commonmark.node.BulletList;
import org.commonmark.node.Code;
import org.commonmark.node.Emphasis;
import org.commonmark.node.FencedCodeBlock;
import org.commonmark.node.HardLineBreak;
import org.commonmark.node.Heading;
import org.commonmark.node.HtmlBlock;
import org.commonmark.node.HtmlInline;
import org.commonmark.node.Image;
import org.commonmark.node.IndentedCodeBlock;
import org.commonmark.node.Link;
import org.commonmark.node.ListItem;
import org.commonmark.node.OrderedList;
import org.commonmark.node.Paragraph;
import org.commonmark.node.SoftLineBreak;
import org.commonmark.node.StrongEmphasis;
import org.commonmark.node.ThematicBreak;

/**
 * Turns commonmark blocks into JavaFX nodes styled by {@code rebound.css} on top of the AtlantaFX theme: paragraphs
 * and headings as text flows, code blocks with a copy button, GFM tables as grids, links as hyperlinks opened through
 * the {@link LinkOpener}.
 */
final class MarkdownRenderer {
    private final LinkOpener links;

    MarkdownRenderer(LinkOpener links) {
        this.links = links;
    }

    Node block(org.commonmark.node.Node block) {
        return block(block, new ArrayList<>(), true);
    }

    /**
     * A block's nodes; a top-level code block may be one of {@code reusable} (the code blocks of the stream's previous
     * tail) given its grown code, so a streaming block's complete lines are not lexed and made again. A code block
     * is complete when {@code settled} or when its closing fence came.
     */
    Node block(org.commonmark.node.Node block, List<CodeBlock> reusable, boolean settled) {
        return switch (block) {
            case Paragraph p -> flow(p, "md-paragraph");
            case Heading h -> flow(h, "md-h" + Math.min(h.getLevel(), 4));
            case FencedCodeBlock code ->
                codeBlock(code.getLiteral(), code.getInfo(), reusable, settled || code.getClosingFenceLength() != null);
            case IndentedCodeBlock code -> codeBlock(code.getLiteral(), "", reusable, settled);
            case BulletList list -> list(list, false, 1);
            case OrderedList list ->
                list(list, true, list.getMarkerStartNumber() == null ? 1 : list.getMarkerStartNumber());
            case BlockQuote quote -> container(quote, "md-quote");
            case ThematicBreak ignored -> new Separator();
            case TableBlock table -> table(table);
            case HtmlBlock html -> plain(html.getLiteral());
            default -> container(block, "md-block");
        };
    }

    private VBox container(org.commonmark.node.Node parent, String styleClass) {
        VBox box = new VBox();
        box.getStyleClass().add(styleClass);
        for (org.commonmark.node.Node child = parent.getFirstChild(); child != null; child = child.getNext()) {
            box.getChildren().add(block(child));
        }
        return box;
    }

    private TextFlow flow(org.commonmark.node.Node parent, String styleClass) {
        TextFlow flow = new TextFlow();
        flow.getStyleClass().addAll("md-flow", styleClass);
        List<Node> inlines = new ArrayList<>();
        inlines(parent, List.of(), inlines);
        flow.getChildren().setAll(inlines);
        return flow;
    }

    private TextFlow plain(String text) {
        TextFlow flow = new TextFlow(text(text.stripTrailing(), List.of()));
        flow.getStyleClass().add("md-flow");
        return flow;
    }

    private void inlines(org.commonmark.node.Node parent, List<String> styles, List<Node> out) {
        for (org.commonmark.node.Node n = parent.getFirstChild(); n != null; n = n.getNext()) {
            switch (n) {
                case org.commonmark.node.Text t -> out.add(text(t.getLiteral(), styles));
                case Code c -> out.add(text(c.getLiteral(), with(styles, "md-code")));
                case Emphasis e -> inlines(e, with(styles, "md-em"), out);
                case StrongEmphasis s -> inlines(s, with(styles, "md-strong"), out);
                case SoftLineBreak ignored -> out.add(text(" ", styles));
                case HardLineBreak ignored -> out.add(text("\n", styles));
                case HtmlInline html -> out.add(text(html.getLiteral(), styles));
                case Link link -> out.add(hyperlink(link.getDestination(), textOf(link)));
                case Image image -> out.add(hyperlink(image.getDestination(), "[image: " + textOf(image) + "]"));
                default -> inlines(n, styles, out);
            }
        }
    }

    private Hyperlink hyperlink(String url, String label) {
        Hyperlink link = new Hyperlink(label.isEmpty() ? url : label);
        link.getStyleClass().add("md-link");
        LazyTooltip.install(link, url);
        link.setOnAction(e -> links.open(url));
        return link;
    }

    private static String textOf(org.commonmark.node.Node node) {
        StringBuilder sb = new StringBuilder();
        for (org.commonmark.node.Node n = node.getFirstChild(); n != null; n = n.getNext()) {
            if (n instanceof org.commonmark.node.Text t) {
                sb.append(t.getLiteral());
            } else if (n instanceof Code c) {
                sb.append(c.getLiteral());
            } else {
                sb.append(textOf(n));
            }
        }
        return sb.toString();
    }

    private static Text text(String literal, List<String> styles) {
        Text text = new Text(literal);
        text.getStyleClass().add("md-text");
        text.getStyleClass().addAll(styles);
        return text;
    }

    private static List<String> with(List<String> styles, String added) {
        List<String> all = new ArrayList<>(styles);
        all.add(added);
        return all;
    }

    /**
     * A code block, reusing {@code reusable}'s first block that the new code continues (a block still streaming)
     * instead of making it again; the one reused is taken from the list.
     */
    private Node codeBlock(String literal, String info, List<CodeBlock> reusable, boolean complete) {
        String code = literal.endsWith("\n") ? literal.substring(0, literal.length() - 1) : literal;
        for (var it = reusable.iterator(); it.hasNext(); ) {
            CodeBlock candidate = it.next();
            if (candidate.continuedBy(info, code)) {
                it.remove();
                candidate.show(code, complete);
                return candidate;
            }
        }
        return new CodeBlock(info, code, complete);
    }

    private Node list(org.commonmark.node.Node list, boolean ordered, int start) {
        VBox box = new VBox();
        box.getStyleClass().add("md-list");
        int number = start;
        for (org.commonmark.node.Node item = list.getFirstChild(); item != null; item = item.getNext()) {
            if (!(item instanceof ListItem)) {
                continue;
            }
            Label marker = new Label(ordered ? number++ + "." : "•");
            marker.getStyleClass().add("md-list-marker");
            marker.setMinWidth(Region.USE_PREF_SIZE);
            VBox content = container(item, "md-list-content");
            HBox.setHgrow(content, Priority.ALWAYS);
            HBox row = new HBox(marker, content);
            row.getStyleClass().add("md-list-item");
            box.getChildren().add(row);
        }
        return box;
    }

    private Node table(TableBlock table) {
        GridPane grid = new GridPane();
        grid.getStyleClass().add("md-table");
        int row = 0;
        for (org.commonmark.node.Node section = table.getFirstChild(); section != null; section = section.getNext()) {
            boolean head = section instanceof TableHead;
            for (org.commonmark.node.Node tr = section.getFirstChild(); tr != null; tr = tr.getNext()) {
                int column = 0;
                for (org.commonmark.node.Node cell = tr.getFirstChild(); cell != null; cell = cell.getNext()) {
                    TextFlow flow = flow(cell, head ? "md-th" : "md-td");
                    if (cell instanceof TableCell tc && tc.getAlignment() == TableCell.Alignment.RIGHT) {
                        flow.setTextAlignment(javafx.scene.text.TextAlignment.RIGHT);
                    }
                    flow.setMaxWidth(Double.MAX_VALUE);
                    grid.add(flow, column++, row);
                }
                row++;
            }
        }
        int columns = grid.getChildren().stream()
                .mapToInt(n -> GridPane.getColumnIndex(n) + 1)
                .max()
                .orElse(0);
        for (int i = 0; i < columns; i++) {
            ColumnConstraints constraints = new ColumnConstraints();
            constraints.setHgrow(Priority.SOMETIMES);
            grid.getColumnConstraints().add(constraints);
        }
        return grid;
    }
}
