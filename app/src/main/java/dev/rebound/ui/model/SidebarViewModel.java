package dev.rebound.ui.model;

import dev.rebound.history.ChatSearch;
import dev.rebound.history.SessionCatalogue;
import dev.rebound.history.SessionSummary;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.Executor;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The list of saved chats, newest first, read from the history catalogue on the background executor. Confined to the
 * FX thread.
 */
public final class SidebarViewModel {
    private static final Logger LOG = LoggerFactory.getLogger(SidebarViewModel.class);

    /** Whether the list is known. */
    public enum State {
        LOADING,
        READY,
        FAILED
    }

    private final SessionCatalogue catalogue;
    private final Executor fx;
    private final Executor background;
    private final ObservableList<SessionSummary> sessions = FXCollections.observableArrayList();
    private final ReadOnlyObjectWrapper<State> state = new ReadOnlyObjectWrapper<>(this, "state", State.LOADING);
    private final ReadOnlyStringWrapper problem = new ReadOnlyStringWrapper(this, "problem", "");
    private final ChatSearchViewModel search;
    /** Counts {@link #refresh()} calls, so a listing that finishes after a newer one is dropped. */
    private long generation;

    public SidebarViewModel(SessionCatalogue catalogue, Executor fx, Executor background) {
        this.catalogue = catalogue;
        this.fx = fx;
        this.background = background;
        this.search =
                new ChatSearchViewModel(new ChatSearch(catalogue.sessionsDir(), catalogue.codec()), fx, background);
    }

    /** The search across every chat's title and messages. */
    public ChatSearchViewModel search() {
        return search;
    }

    public ObservableList<SessionSummary> sessions() {
        return sessions;
    }

    public ReadOnlyObjectProperty<State> stateProperty() {
        return state.getReadOnlyProperty();
    }

    /** Why the list could not be read, for people; empty when it could. */
    public ReadOnlyStringProperty problemProperty() {
        return problem.getReadOnlyProperty();
    }

    /** Reads the catalogue again; only the newest listing is shown, whatever order the readings finish in. */
    public void refresh() {
        long asked = ++generation;
        background.execute(() -> {
            try {
                List<SessionSummary> listed = catalogue.list();
                fx.execute(() -> {
                    if (asked != generation) {
                        return;
                    }
                    sessions.setAll(listed);
                    problem.set("");
                    state.set(State.READY);
                    // A chat changed (a turn ended, a rename, a delete): the hits shown may have too.
                    search.refresh();
                });
            } catch (IOException e) {
                LOG.warn("Listing {} failed", catalogue.sessionsDir(), e);
                fx.execute(() -> {
                    if (asked != generation) {
                        return;
                    }
                    problem.set("Saved chats could not be listed (" + e.getMessage() + "). Check that "
                            + catalogue.sessionsDir() + " is readable.");
                    state.set(State.FAILED);
                });
            }
        });
    }
}
