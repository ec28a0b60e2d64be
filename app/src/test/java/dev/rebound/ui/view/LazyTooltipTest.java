package dev.rebound.ui.view;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.Callable;
import javafx.event.Event;
import javafx.scene.control.Button;
import javafx.scene.control.Tooltip;
import javafx.scene.input.MouseButton;
import javafx.scene.input.MouseEvent;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

class LazyTooltipTest {
    @BeforeAll
    static void toolkit() throws Exception {
        FxToolkit.registerPrimaryStage();
    }

    private static <T> T fx(Callable<T> call) throws Exception {
        return WaitForAsyncUtils.asyncFx(call).get();
    }

    private static void enter(Button button) throws Exception {
        fx(() -> {
            Event.fireEvent(button, entered());
            return null;
        });
    }

    private static MouseEvent entered() {
        return new MouseEvent(
                MouseEvent.MOUSE_ENTERED,
                1,
                1,
                1,
                1,
                MouseButton.NONE,
                0,
                false,
                false,
                false,
                false,
                false,
                false,
                false,
                false,
                false,
                false,
                null);
    }

    @Test
    void theTooltipIsMadeOnTheFirstMouseEntryAndKeptAfter() throws Exception {
        Button copy = fx(() -> {
            Button button = new Button("Copy");
            LazyTooltip.install(button, "Copy this code");
            return button;
        });
        assertThat(fx(copy::getTooltip)).isNull();
        assertThat(fx(copy::getAccessibleHelp)).isEqualTo("Copy this code");

        enter(copy);
        Tooltip made = fx(copy::getTooltip);
        assertThat(made).isNotNull();
        assertThat(made.getText()).isEqualTo("Copy this code");

        enter(copy);
        assertThat(fx(copy::getTooltip)).isSameAs(made);
    }

    @Test
    void aMadeTooltipIsMadeOnceAtTheFirstEntryAndFollowsItsText() throws Exception {
        javafx.beans.property.SimpleStringProperty reason = new javafx.beans.property.SimpleStringProperty("first");
        java.util.concurrent.atomic.AtomicInteger made = new java.util.concurrent.atomic.AtomicInteger();
        Button why = fx(() -> {
            Button button = new Button("i");
            LazyTooltip.install(button, () -> {
                made.incrementAndGet();
                Tooltip tip = new Tooltip();
                tip.textProperty().bind(reason);
                return tip;
            });
            return button;
        });
        assertThat(made).hasValue(0);

        enter(why);
        enter(why);
        assertThat(made).hasValue(1);
        fx(() -> {
            reason.set("second");
            return null;
        });
        assertThat(fx(() -> why.getTooltip().getText())).isEqualTo("second");
    }
}
