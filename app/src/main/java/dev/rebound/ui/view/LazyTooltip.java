package dev.rebound.ui.view;

import java.util.function.Supplier;
import javafx.scene.control.Control;
import javafx.scene.control.Tooltip;
import javafx.scene.input.MouseEvent;

/**
 * A tooltip made when the pointer first enters its control, not with the control. A {@link Tooltip} is a popup window
 * with a scene of its own, and the controls of a chat row (a code block's Copy, a link) are made again whenever the
 * list measures or reuses the row: the FX profile of a streaming reply had several per cent of the FX thread in
 * making tooltips nobody pointed at. The text is the control's accessible help from the start, as a made tooltip's
 * would be.
 */
final class LazyTooltip {
    private LazyTooltip() {}

    /** Gives {@code control} a tooltip of {@code text}, made on the first mouse entry. */
    static void install(Control control, String text) {
        control.setAccessibleHelp(text);
        install(control, () -> new Tooltip(text));
    }

    /**
     * Gives {@code control} the tooltip {@code make} makes (one whose text follows a property, say) on the first mouse
     * entry. The caller sets the control's accessible help. Also what keeps tooltips out of the window's first frame:
     * the first one initialises JavaFX's tooltip machinery, ~25 ms there (docs/startup.md).
     */
    static void install(Control control, Supplier<Tooltip> make) {
        control.addEventHandler(MouseEvent.MOUSE_ENTERED, e -> {
            if (control.getTooltip() == null) {
                control.setTooltip(make.get());
            }
        });
    }
}
