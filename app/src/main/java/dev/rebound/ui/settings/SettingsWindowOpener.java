package dev.rebound.ui.settings;

import dev.rebound.ui.settings.model.SettingsServices;
import dev.rebound.ui.settings.model.SettingsViewModel;
import dev.rebound.ui.view.SettingsOpener;
import dev.rebound.ui.view.SettingsTab;
import java.util.concurrent.Executor;
import javafx.stage.Window;

/**
 * What the chat window's Settings… menu (Ctrl+,) calls: shows the settings window, or brings the open one to the
 * front instead of opening a second. Each opening starts from the settings as saved now. Used on the FX thread.
 */
public final class SettingsWindowOpener implements SettingsOpener {
    private final SettingsServices services;
    private final Executor fx;
    private final Executor background;
    private SettingsWindow open;

    /**
     * @param fx how work reaches the FX thread
     * @param background where saves and connection tests run
     */
    public SettingsWindowOpener(SettingsServices services, Executor fx, Executor background) {
        this.services = services;
        this.fx = fx;
        this.background = background;
    }

    @Override
    public void open(Window owner, SettingsTab tab) {
        if (open == null || !open.stage().isShowing()) {
            open = SettingsWindow.show(owner, new SettingsViewModel(services, fx, background), services.pluginsDir());
        } else {
            open.stage().toFront();
            open.stage().requestFocus();
        }
        open.select(
                switch (tab) {
                    case RETRY -> "tab-retry";
                    case FALLBACK_CHAINS -> "tab-chains";
                    case PROVIDERS -> "tab-providers";
                    case CHAT -> "tab-chat";
                    case PLUGINS -> "tab-plugins";
                });
    }

    /** The window open now, or null. */
    public SettingsWindow current() {
        return open != null && open.stage().isShowing() ? open : null;
    }
}
