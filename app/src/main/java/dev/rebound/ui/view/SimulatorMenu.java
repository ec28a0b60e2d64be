package dev.rebound.ui.view;

import dev.rebound.ui.model.SimulatedFailure;
import dev.rebound.ui.model.SimulatorMenuViewModel;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import javafx.beans.binding.Bindings;
import javafx.scene.control.CustomMenuItem;
import javafx.scene.control.Label;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuItem;
import javafx.scene.control.RadioMenuItem;
import javafx.scene.control.SeparatorMenuItem;
import javafx.scene.control.ToggleGroup;
import javafx.scene.control.Tooltip;

/**
 * The "Simulate failures" menu of the menu bar: one item per {@link SimulatedFailure}, "Clear queued failures", the
 * queued count and the reply speed. While the chat shown does not talk to the built-in simulator, every action is
 * disabled and the menu's first line says why (a keyboard user reads it there; JavaFX shows no tooltip on a disabled
 * node), as does the tooltip of an info mark in the title. Alt+I opens it (mnemonic); the title carries the count.
 */
final class SimulatorMenu {
    private SimulatorMenu() {}

    static Menu build(SimulatorMenuViewModel model) {
        Menu menu = new Menu();
        menu.setId("simulate-menu");
        menu.textProperty()
                .bind(Bindings.createStringBinding(
                        () -> model.queuedProperty().get() == 0
                                ? "S_imulate failures"
                                : "S_imulate failures ("
                                        + model.queuedProperty().get() + ")",
                        model.queuedProperty()));
        // A Menu has no tooltip of its own: while unavailable, an info mark in the title carries the reason.
        // Tooltips are made when first wanted, not with the window: each is a popup window of its own, and making
        // them (and initialising Tooltip) took ~30 ms of the window's first frame (docs/startup.md). The reason's
        // is made when the pointer first reaches the mark, the failures' when the menu first opens.
        Label why = new Label("ℹ");
        why.setId("simulate-why");
        why.accessibleHelpProperty().bind(model.unavailableReasonProperty());
        LazyTooltip.install(why, () -> {
            Tooltip reasonTip = new Tooltip();
            reasonTip.textProperty().bind(model.unavailableReasonProperty());
            reasonTip.setWrapText(true);
            reasonTip.setMaxWidth(420);
            return reasonTip;
        });
        menu.graphicProperty()
                .bind(Bindings.when(model.availableProperty())
                        .then((Label) null)
                        .otherwise(why));
        menu.getStyleClass().add("simulate-menu");
        Map<Label, String> tips = new LinkedHashMap<>();
        menu.setOnShowing(e -> {
            model.refresh();
            tips.forEach((label, tip) -> Tooltip.install(label, new Tooltip(tip)));
            tips.clear();
        });

        Label reason = new Label();
        reason.setId("simulate-unavailable");
        reason.setWrapText(true);
        reason.setMaxWidth(380);
        reason.textProperty().bind(model.unavailableReasonProperty());
        CustomMenuItem reasonItem = new CustomMenuItem(reason, false);
        reasonItem.visibleProperty().bind(model.availableProperty().not());
        menu.getItems().add(reasonItem);

        // The failures come first, so the first Down after Alt+I lands on one (a menu lets the keyboard stop on a
        // disabled line too, and the queue line used to be that first stop).
        for (SimulatedFailure failure : SimulatedFailure.values()) {
            Label text = new Label(failure.label());
            text.setAccessibleHelp(failure.description());
            tips.put(text, failure.description());
            CustomMenuItem item = new CustomMenuItem(text);
            item.setId("simulate-" + failure.name().toLowerCase(Locale.ROOT).replace('_', '-'));
            item.disableProperty().bind(model.availableProperty().not());
            // A custom item's content does not inherit the item's disabled look; bind it too.
            text.disableProperty().bind(item.disableProperty());
            item.setOnAction(e -> model.queue(failure));
            menu.getItems().add(item);
        }
        menu.getItems().add(new SeparatorMenuItem());
        MenuItem count = new MenuItem();
        count.setId("simulate-queued");
        count.textProperty().bind(model.queuedTextProperty());
        count.setDisable(true);
        menu.getItems().add(count);
        MenuItem clear = new MenuItem("_Clear queued failures");
        clear.setId("simulate-clear");
        clear.disableProperty().bind(model.queuedProperty().isEqualTo(0));
        clear.setOnAction(e -> model.clear());
        menu.getItems().addAll(clear, new SeparatorMenuItem(), speeds(model));
        return menu;
    }

    private static Menu speeds(SimulatorMenuViewModel model) {
        Menu speed = new Menu("Reply _speed");
        speed.setId("simulate-speed");
        ToggleGroup group = new ToggleGroup();
        for (double rate : SimulatorMenuViewModel.SPEEDS) {
            RadioMenuItem item = new RadioMenuItem(rate == 0 ? "Instant" : "%,.0f tokens/s".formatted(rate));
            item.setToggleGroup(group);
            item.setSelected(rate == model.speedProperty().get());
            item.setOnAction(e -> model.chooseSpeed(rate));
            speed.getItems().add(item);
        }
        speed.disableProperty().bind(model.availableProperty().not());
        return speed;
    }
}
