package dev.rebound.ui.settings;

import dev.rebound.ui.settings.model.SettingsServices;
import dev.rebound.ui.settings.model.SettingsViewModel;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import javafx.stage.Window;

/**
 * What the chat window's Settings… menu (Ctrl+,) calls: shows the settings window, or brings the open one to the
 * front instead of opening a second. Each opening starts from the settings as saved now. Used on the FX thread.
 */
public final class SettingsOpener implements Consumer<Window> {
    private final SettingsServices services;
    private final Executor fx;
    private final Executor background;
    private SettingsWindow open;

    /**
     * @param fx how work reaches the FX thread
     * @param background where saves and connection tests run
     */
    public SettingsOpener(SettingsServices services, Executor fx, Executor background) {
        this.services = services;
        this.fx = fx;
        this.background = background;
    }

    @Override
    public void accept(Window owner) {
        if (open != null && open.stage().isShowing()) {
            open.stage().toFront();
            open.stage().requestFocus();
            return;
        }
        open = SettingsWindow.show(owner, new SettingsViewModel(services, fx, background), services.pluginsDir());
    }

    /** The window open now, or null. */
    public SettingsWindow current() {
        return open != null && open.stage().isShowing() ? open : null;
    }
}
