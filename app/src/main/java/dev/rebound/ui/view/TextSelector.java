package dev.rebound.ui.view;

import dev.rebound.ui.model.AssistantItem;
import dev.rebound.ui.model.ChatItem;
import dev.rebound.ui.model.ChatRow;
import dev.rebound.ui.model.TextSelection;
import dev.rebound.ui.model.TextSelection.Spot;
import dev.rebound.ui.model.UserItem;
import java.text.BreakIterator;
import java.util.List;
import javafx.animation.AnimationTimer;
import javafx.event.EventHandler;
import javafx.geometry.Bounds;
import javafx.geometry.Point2D;
import javafx.scene.Node;
import javafx.scene.control.ButtonBase;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.ListView;
import javafx.scene.control.ScrollBar;
import javafx.scene.control.skin.VirtualFlow;
import javafx.scene.input.Clipboard;
import javafx.scene.input.ClipboardContent;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.input.MouseButton;
import javafx.scene.input.MouseEvent;
import javafx.scene.shape.LineTo;
import javafx.scene.shape.MoveTo;
import javafx.scene.shape.PathElement;
import javafx.scene.text.HitInfo;
import javafx.scene.text.TextFlow;

/**
 * Selects message text in the chat list with the mouse and the keyboard, into the chat's {@link TextSelection}: a
 * drag selects from where it began (across the blocks and parts of one message; beyond the message it stops at its
 * start or end), a double click a word, a triple click a line or paragraph, Shift+click extends. A click on a link
 * without a drag opens it; a drag that starts on a link selects and does not open it. With the list focused, Shift with
 * the arrows, Home and End moves the selection's end (Ctrl with Left/Right by words), Ctrl+A selects the whole message,
 * Ctrl+C copies, Esc clears. Dragging past the top or bottom of the list scrolls it.
 */
final class TextSelector {
    /** How far the pointer must move before a press becomes a drag (a click on a link stays a click). */
    private static final double DRAG_THRESHOLD = 4;
    /** The most the list scrolls per frame while a drag is held past its edge. */
    private static final double MAX_SCROLL_STEP = 40;

    private final ListView<ChatRow> list;
    private final List<MessageCell> cells;
    private final TextSelection selection;
    private final MarkdownRenderer renderer;

    private ChatItem pressMessage;
    private int pressIndex;
    private Node pressTarget;
    private Spot anchor;
    private double pressX;
    private double pressY;
    private double lastX;
    private double lastY;
    private boolean dragging;

    private final AnimationTimer autoScroll = new AnimationTimer() {
        @Override
        public void handle(long now) {
            scrollWhileDragging();
        }
    };
    private final EventHandler<MouseEvent> onPressed = this::pressed;
    private final EventHandler<MouseEvent> onDragged = this::dragged;
    private final EventHandler<MouseEvent> onReleased = this::released;
    private final EventHandler<KeyEvent> onKey = this::key;

    TextSelector(ListView<ChatRow> list, List<MessageCell> cells, TextSelection selection, MarkdownRenderer renderer) {
        this.list = list;
        this.cells = cells;
        this.selection = selection;
        this.renderer = renderer;
        list.addEventFilter(MouseEvent.MOUSE_PRESSED, onPressed);
        list.addEventFilter(MouseEvent.MOUSE_DRAGGED, onDragged);
        list.addEventFilter(MouseEvent.MOUSE_RELEASED, onReleased);
        list.addEventFilter(KeyEvent.KEY_PRESSED, onKey);
    }

    /** Removes the list's handlers (the chat pane is let go). */
    void dispose() {
        autoScroll.stop();
        list.removeEventFilter(MouseEvent.MOUSE_PRESSED, onPressed);
        list.removeEventFilter(MouseEvent.MOUSE_DRAGGED, onDragged);
        list.removeEventFilter(MouseEvent.MOUSE_RELEASED, onReleased);
        list.removeEventFilter(KeyEvent.KEY_PRESSED, onKey);
    }

    /** Puts the selected text on the clipboard as plain text (nothing happens when nothing is selected). */
    void copy() {
        String text = selectedText();
        if (!text.isEmpty()) {
            ClipboardContent content = new ClipboardContent();
            content.putString(text);
            Clipboard.getSystemClipboard().setContent(content);
        }
    }

    /**
     * The selected text as plain text: blocks joined by a newline (table cells of a row by a tab), a list item with
     * its marker when the selection began before it, a link as its label. Parts of a long reply that are not on
     * screen are rendered off screen to read them.
     */
    String selectedText() {
        TextSelection.Range range = selection.range();
        if (range == null || range.isEmpty()) {
            return "";
        }
        ChatItem message = range.message();
        int lastPart = Math.min(range.end().part(), partCount(message) - 1);
        StringBuilder out = new StringBuilder();
        boolean first = true;
        for (int part = range.start().part(); part <= lastPart; part++) {
            List<TextBlock> blocks = blocksOf(message, part);
            for (int i = 0; i < blocks.size(); i++) {
                TextBlock block = blocks.get(i);
                int[] span = TextBlock.span(range, part, i, block.length());
                if (span == null) {
                    continue;
                }
                if (!first) {
                    out.append(i == 0 ? "\n" : block.before()).append(block.prefix());
                }
                out.append(block.copy(span[0], span[1]));
                first = false;
            }
        }
        return out.toString();
    }

    private void pressed(MouseEvent e) {
        if (e.getButton() != MouseButton.PRIMARY) {
            return; // a right click opens the context menu over the selection as it is
        }
        pressMessage = null;
        dragging = false;
        Node picked = e.getPickResult().getIntersectedNode();
        if (onControl(picked)) {
            return; // a button or scroll bar of a row keeps the selection (its Copy, say)
        }
        MessageCell cell = cellOf(picked);
        Hit hit = cell == null || cell.message() == null ? null : hit(cell, e.getSceneX(), e.getSceneY());
        if (hit == null) {
            selection.clear(); // a click on a notice or beside the rows: nothing is selected any more
            return;
        }
        pressMessage = cell.message();
        pressIndex = cell.getIndex();
        pressTarget = e.getPickResult().getIntersectedNode();
        pressX = e.getSceneX();
        pressY = e.getSceneY();
        Spot at = new Spot(cell.part(), hit.block(), hit.insertion());
        TextSelection.Range range = selection.range();
        if (e.isShiftDown() && range != null && range.in(pressMessage)) {
            anchor = range.anchor();
            selection.select(pressMessage, anchor, at);
        } else if (e.getClickCount() == 2) {
            selectWord(cell, hit);
        } else if (e.getClickCount() >= 3) {
            selectLine(cell, hit);
        } else {
            anchor = at;
            selection.select(pressMessage, at, at);
        }
    }

    private void dragged(MouseEvent e) {
        if (pressMessage == null) {
            return; // no primary press on text began this drag (the flag of the button is not relied on)
        }
        lastX = e.getSceneX();
        lastY = e.getSceneY();
        if (!dragging) {
            if (Math.hypot(lastX - pressX, lastY - pressY) < DRAG_THRESHOLD) {
                return;
            }
            dragging = true;
            autoScroll.start();
        }
        extendTo(lastX, lastY);
    }

    private void released(MouseEvent e) {
        if (e.getButton() != MouseButton.PRIMARY) {
            return;
        }
        autoScroll.stop();
        if (dragging) {
            // The drag selected; a link it started on must not open now (a button fires on release while armed).
            for (Node n = pressTarget; n != null && n != list; n = n.getParent()) {
                if (n instanceof Hyperlink link) {
                    link.disarm();
                }
            }
        }
        dragging = false;
        pressMessage = null;
        pressTarget = null;
    }

    /** Moves the selection's end to the point (scene coordinates) of a drag. */
    private void extendTo(double sceneX, double sceneY) {
        MessageCell cell = cellAt(sceneY);
        Spot focus;
        if (cell == null) {
            return;
        }
        if (cell.message() == pressMessage) {
            Hit hit = hit(cell, sceneX, sceneY);
            focus = hit != null
                    ? new Spot(cell.part(), hit.block(), hit.insertion())
                    : cell.getIndex() < pressIndex ? Spot.START : Spot.END;
        } else {
            focus = cell.getIndex() < pressIndex ? Spot.START : Spot.END;
        }
        selection.select(pressMessage, anchor, focus);
    }

    private void scrollWhileDragging() {
        if (!dragging || !(list.lookup(".virtual-flow") instanceof VirtualFlow<?> flow)) {
            return;
        }
        Bounds bounds = list.localToScene(list.getLayoutBounds());
        double past = lastY < bounds.getMinY()
                ? lastY - bounds.getMinY()
                : lastY > bounds.getMaxY() ? lastY - bounds.getMaxY() : 0;
        if (past != 0) {
            flow.scrollPixels(Math.clamp(past / 2, -MAX_SCROLL_STEP, MAX_SCROLL_STEP));
            extendTo(lastX, Math.clamp(lastY, bounds.getMinY() + 1, bounds.getMaxY() - 1));
        }
    }

    private void key(KeyEvent e) {
        TextSelection.Range range = selection.range();
        KeyCode code = e.getCode();
        if (e.isShortcutDown() && code == KeyCode.C && !e.isShiftDown()) {
            if (selection.hasSelection()) {
                copy();
                e.consume();
            }
        } else if (e.isShortcutDown() && code == KeyCode.A && !e.isShiftDown()) {
            ChatItem message = range != null
                    ? range.message()
                    : messageOf(list.getFocusModel().getFocusedItem());
            if (message != null) {
                selection.select(message, Spot.START, resolve(message, Spot.END));
                e.consume();
            }
        } else if (code == KeyCode.ESCAPE && range != null) {
            selection.clear();
        } else if (e.isShiftDown() && range != null) {
            Spot focus = resolve(range.message(), range.focus());
            Spot moved = switch (code) {
                case LEFT -> step(range.message(), focus, false, e.isShortcutDown());
                case RIGHT -> step(range.message(), focus, true, e.isShortcutDown());
                case HOME -> new Spot(focus.part(), focus.block(), 0);
                case END -> new Spot(focus.part(), focus.block(), length(range.message(), focus));
                case UP -> line(range.message(), focus, false);
                case DOWN -> line(range.message(), focus, true);
                default -> null;
            };
            if (moved != null) {
                selection.select(range.message(), resolve(range.message(), range.anchor()), moved);
                e.consume();
            }
        }
    }

    /** One character (or word) further, into the next or previous block at a block's end. */
    private Spot step(ChatItem message, Spot from, boolean forward, boolean word) {
        List<TextBlock> blocks = blocksOf(message, from.part());
        if (blocks.isEmpty()) {
            return from;
        }
        String text = blocks.get(from.block()).layoutText();
        if (forward && from.offset() < text.length()) {
            int next = from.offset() + 1;
            if (word) {
                BreakIterator words = BreakIterator.getWordInstance();
                words.setText(text);
                next = words.following(from.offset());
            }
            return new Spot(from.part(), from.block(), next);
        }
        if (!forward && from.offset() > 0) {
            int previous = from.offset() - 1;
            if (word) {
                BreakIterator words = BreakIterator.getWordInstance();
                words.setText(text);
                previous = words.preceding(from.offset());
            }
            return new Spot(from.part(), from.block(), previous);
        }
        if (forward) {
            if (from.block() + 1 < blocks.size()) {
                return new Spot(from.part(), from.block() + 1, 0);
            }
            return from.part() + 1 < partCount(message) ? new Spot(from.part() + 1, 0, 0) : from;
        }
        if (from.block() > 0) {
            return new Spot(
                    from.part(), from.block() - 1, blocks.get(from.block() - 1).length());
        }
        return from.part() > 0
                ? resolve(message, new Spot(from.part() - 1, Integer.MAX_VALUE, Integer.MAX_VALUE))
                : from;
    }

    /** The same place one line up or down, in the block on screen; past its first or last line, the next block. */
    private Spot line(ChatItem message, Spot from, boolean down) {
        MessageCell cell = visibleCell(message, from.part());
        List<TextBlock> blocks = cell == null ? List.of() : cell.blocks();
        if (from.block() >= blocks.size()) {
            return step(message, from, down, false);
        }
        TextFlow flow = blocks.get(from.block()).flow();
        double[] caret = caret(flow, from.offset());
        double y = down ? caret[2] + 1 : caret[1] - 1;
        double top = flow.snappedTopInset();
        double bottom = flow.getHeight() - flow.snappedBottomInset();
        if (y > top && y < bottom) {
            int offset = flow.getHitInfo(new Point2D(caret[0], y)).getInsertionIndex();
            return new Spot(from.part(), from.block(), offset);
        }
        int next = from.block() + (down ? 1 : -1);
        if (next < 0 || next >= blocks.size()) {
            Spot edge = down
                    ? new Spot(
                            from.part(), from.block(), blocks.get(from.block()).length())
                    : new Spot(from.part(), from.block(), 0);
            return edge.equals(from) ? step(message, from, down, false) : edge;
        }
        TextFlow target = blocks.get(next).flow();
        Point2D x = target.sceneToLocal(flow.localToScene(caret[0], 0));
        double targetY = down ? target.snappedTopInset() + 1 : target.getHeight() - target.snappedBottomInset() - 1;
        return new Spot(
                from.part(),
                next,
                target.getHitInfo(new Point2D(x.getX(), targetY)).getInsertionIndex());
    }

    /** The caret at {@code offset} of {@code flow}: x, top, bottom. */
    private static double[] caret(TextFlow flow, int offset) {
        double x = 0;
        double top = Double.MAX_VALUE;
        double bottom = -Double.MAX_VALUE;
        for (PathElement element : flow.getCaretShape(offset, true)) {
            double ex;
            double ey;
            if (element instanceof MoveTo move) {
                ex = move.getX();
                ey = move.getY();
            } else if (element instanceof LineTo to) {
                ex = to.getX();
                ey = to.getY();
            } else {
                continue;
            }
            x = ex;
            top = Math.min(top, ey);
            bottom = Math.max(bottom, ey);
        }
        return top > bottom ? new double[] {0, 0, 0} : new double[] {x, top, bottom};
    }

    private void selectWord(MessageCell cell, Hit hit) {
        String text = cell.blocks().get(hit.block()).layoutText();
        if (text.isEmpty()) {
            return;
        }
        int at = Math.clamp(hit.charIndex(), 0, text.length() - 1);
        BreakIterator words = BreakIterator.getWordInstance();
        words.setText(text);
        int start = words.isBoundary(at) ? at : words.preceding(at);
        int end = words.following(at);
        anchor = new Spot(cell.part(), hit.block(), start);
        selection.select(cell.message(), anchor, new Spot(cell.part(), hit.block(), end));
    }

    private void selectLine(MessageCell cell, Hit hit) {
        String text = cell.blocks().get(hit.block()).layoutText();
        int at = Math.clamp(hit.charIndex(), 0, text.length());
        int start = text.lastIndexOf('\n', Math.max(at - 1, 0)) + 1;
        if (at == 0) {
            start = 0;
        }
        int end = text.indexOf('\n', at);
        anchor = new Spot(cell.part(), hit.block(), start);
        selection.select(cell.message(), anchor, new Spot(cell.part(), hit.block(), end < 0 ? text.length() : end));
    }

    /**
     * Whether a press lands on a control of a row rather than its text: a code block's Copy button or scroll bar, the
     * reasoning toggle, Retry, the list's scroll bar. A link inside the text is text (a drag over it selects).
     */
    private boolean onControl(Node picked) {
        Node control = null;
        for (Node n = picked; n != null && n != list; n = n.getParent()) {
            if (control == null && (n instanceof ButtonBase || n instanceof ScrollBar)) {
                control = n;
            }
            if (n instanceof TextFlow && control instanceof Hyperlink) {
                control = null;
            }
        }
        return control != null;
    }

    private MessageCell cellOf(Node picked) {
        for (Node n = picked; n != null && n != list; n = n.getParent()) {
            if (n instanceof MessageCell cell) {
                return cell;
            }
        }
        return null;
    }

    /** The row on screen at a height of the scene, the nearest one when the point is above or below them all. */
    private MessageCell cellAt(double sceneY) {
        MessageCell best = null;
        double distance = Double.MAX_VALUE;
        for (MessageCell cell : cells) {
            if (!onScreen(cell)) {
                continue;
            }
            Bounds b = cell.localToScene(cell.getLayoutBounds());
            double d = sceneY < b.getMinY() ? b.getMinY() - sceneY : sceneY > b.getMaxY() ? sceneY - b.getMaxY() : 0;
            if (d < distance) {
                distance = d;
                best = cell;
            }
        }
        return best;
    }

    /**
     * Where in a row's text a point of the scene falls: in the block under it, else the nearest block (by height,
     * then by width), with the point moved into that block.
     */
    private Hit hit(MessageCell cell, double sceneX, double sceneY) {
        List<TextBlock> blocks = cell.blocks();
        int best = -1;
        double bestDy = Double.MAX_VALUE;
        double bestDx = Double.MAX_VALUE;
        Bounds bestBounds = null;
        for (int i = 0; i < blocks.size(); i++) {
            TextFlow flow = blocks.get(i).flow();
            Bounds b = flow.localToScene(flow.getLayoutBounds());
            double dy = Math.max(0, Math.max(b.getMinY() - sceneY, sceneY - b.getMaxY()));
            double dx = Math.max(0, Math.max(b.getMinX() - sceneX, sceneX - b.getMaxX()));
            if (dy < bestDy || dy == bestDy && dx < bestDx) {
                best = i;
                bestDy = dy;
                bestDx = dx;
                bestBounds = b;
            }
        }
        if (best < 0) {
            return null;
        }
        TextFlow flow = blocks.get(best).flow();
        double x = Math.clamp(sceneX, bestBounds.getMinX(), bestBounds.getMaxX());
        double y = Math.clamp(
                sceneY, bestBounds.getMinY() + 1, Math.max(bestBounds.getMaxY() - 1, bestBounds.getMinY() + 1));
        HitInfo info = flow.getHitInfo(flow.sceneToLocal(x, y));
        int length = blocks.get(best).length();
        return new Hit(
                best, Math.clamp(info.getCharIndex(), 0, length), Math.clamp(info.getInsertionIndex(), 0, length));
    }

    /** The text blocks of one part of a message: from its row on screen, else rendered off screen. */
    private List<TextBlock> blocksOf(ChatItem message, int part) {
        MessageCell cell = visibleCell(message, part);
        if (cell != null) {
            return cell.blocks();
        }
        return switch (message) {
            case UserItem user -> TextBlock.in(MessageCell.promptText(user.text()));
            case AssistantItem reply -> {
                MarkdownView view = new MarkdownView(renderer);
                view.showAll(reply.part(part));
                yield TextBlock.in(view);
            }
            default -> List.of();
        };
    }

    private MessageCell visibleCell(ChatItem message, int part) {
        for (MessageCell cell : cells) {
            if (onScreen(cell) && cell.message() == message && cell.part() == part) {
                return cell;
            }
        }
        return null;
    }

    private static boolean onScreen(MessageCell cell) {
        return cell.isVisible() && !cell.isEmpty() && cell.getScene() != null;
    }

    /** A spot moved onto the message's text as it is now (past the end of a block, part or message: its end). */
    private Spot resolve(ChatItem message, Spot spot) {
        int part = Math.min(spot.part(), partCount(message) - 1);
        List<TextBlock> blocks = blocksOf(message, part);
        if (blocks.isEmpty()) {
            return new Spot(part, 0, 0);
        }
        int block = Math.min(spot.block(), blocks.size() - 1);
        boolean pastBlock = spot.part() > part || spot.block() > block;
        int length = blocks.get(block).length();
        return new Spot(part, block, pastBlock ? length : Math.min(spot.offset(), length));
    }

    private int length(ChatItem message, Spot spot) {
        List<TextBlock> blocks = blocksOf(message, spot.part());
        return spot.block() < blocks.size() ? blocks.get(spot.block()).length() : 0;
    }

    private static int partCount(ChatItem message) {
        return message instanceof AssistantItem reply ? reply.partCount() : 1;
    }

    private static ChatItem messageOf(ChatRow row) {
        return switch (row) {
            case UserItem user -> user;
            case dev.rebound.ui.model.ReplyPart part -> part.reply();
            case null, default -> null;
        };
    }

    /**
     * @param block which block of the row
     * @param charIndex the character under the point
     * @param insertion the gap between characters nearest the point
     */
    private record Hit(int block, int charIndex, int insertion) {}
}
