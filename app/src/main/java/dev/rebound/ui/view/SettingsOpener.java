package dev.rebound.ui.view;

import javafx.stage.Window;

/** Opens the settings window over the chat window, on a given tab. Called on the FX thread. */
@FunctionalInterface
public interface SettingsOpener {

    /**
     * @param owner the chat window
     * @param tab the tab to show first
     */
    void open(Window owner, SettingsTab tab);
}
