package dev.rebound.ui.model;

import dev.rebound.history.ChatSearch;
import java.io.IOException;
import java.util.Locale;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sidebar's search across chats: each change of the query searches in the background and shows the newest query's
 * hits only — a search that finishes after a newer one started is dropped, and one that has not started yet when a
 * newer query arrives is skipped. Confined to the FX thread.
 */
public final class ChatSearchViewModel {
    /** The most hits shown; the summary says how many more match. */
    public static final int LIMIT = 100;

    private static final Logger LOG = LoggerFactory.getLogger(ChatSearchViewModel.class);

    /** What the search shows. */
    public enum State {
        /** No query: the sidebar shows every chat. */
        IDLE,
        /** A query is being searched; the previous hits stay until the new ones arrive. */
        SEARCHING,
        /** The hits of the query are shown. */
        READY,
        /** The chats could not be searched; {@link #summaryProperty()} says why. */
        FAILED
    }

    private final ChatSearch search;
    private final Executor fx;
    private final Executor background;
    private final StringProperty query = new SimpleStringProperty(this, "query", "");
    private final ObservableList<ChatSearch.Hit> hits = FXCollections.observableArrayList();
    private final ReadOnlyObjectWrapper<State> state = new ReadOnlyObjectWrapper<>(this, "state", State.IDLE);
    private final ReadOnlyStringWrapper summary = new ReadOnlyStringWrapper(this, "summary", "");
    /** The generation of the newest query; read by background tasks to skip a query already replaced. */
    private final AtomicLong generation = new AtomicLong();

    public ChatSearchViewModel(ChatSearch search, Executor fx, Executor background) {
        this.search = search;
        this.fx = fx;
        this.background = background;
        query.addListener((obs, old, now) -> searchNow());
    }

    /** The text typed; every change searches. */
    public StringProperty queryProperty() {
        return query;
    }

    /** The matching chats of the newest query searched. */
    public ObservableList<ChatSearch.Hit> hits() {
        return hits;
    }

    public ReadOnlyObjectProperty<State> stateProperty() {
        return state.getReadOnlyProperty();
    }

    /** "3 chats", "No chat matches", "Showing 100 of 412 chats", or why searching failed. */
    public ReadOnlyStringProperty summaryProperty() {
        return summary.getReadOnlyProperty();
    }

    /** Whether a query is typed (the sidebar then shows the hits instead of every chat). */
    public boolean active() {
        return !query.get().isBlank();
    }

    /** Clears the query (Esc): the sidebar shows every chat again. */
    public void clear() {
        query.set("");
    }

    /** Reads new and changed chats into the index in the background, so the first search is quick. */
    public void prepare() {
        background.execute(() -> {
            try {
                search.refresh();
            } catch (IOException e) {
                LOG.debug("Preparing the chat search failed", e);
            }
        });
    }

    /** Searches the query again (the chats changed), when there is one. */
    public void refresh() {
        if (active()) {
            searchNow();
        }
    }

    private void searchNow() {
        long asked = generation.incrementAndGet();
        String text = query.get();
        if (text.isBlank()) {
            hits.clear();
            summary.set("");
            state.set(State.IDLE);
            return;
        }
        if (hits.isEmpty()) {
            summary.set("Searching…");
        }
        state.set(State.SEARCHING);
        background.execute(() -> {
            if (generation.get() != asked) {
                return;
            }
            try {
                ChatSearch.Results results = search.search(text, LIMIT);
                fx.execute(() -> {
                    if (generation.get() == asked) {
                        show(results);
                    }
                });
            } catch (IOException | RuntimeException e) {
                LOG.warn("Searching the chats for a query failed", e);
                fx.execute(() -> {
                    if (generation.get() == asked) {
                        hits.clear();
                        summary.set("The chats could not be searched (" + e.getMessage()
                                + "). Check that the sessions folder is readable.");
                        state.set(State.FAILED);
                    }
                });
            }
        });
    }

    private void show(ChatSearch.Results results) {
        hits.setAll(results.hits());
        summary.set(describe(results));
        state.set(State.READY);
    }

    private static String describe(ChatSearch.Results results) {
        int total = results.total();
        if (total == 0) {
            return "No chat matches";
        }
        if (total > results.hits().size()) {
            return String.format(
                    Locale.ROOT, "Showing %d of %,d chats", results.hits().size(), total);
        }
        return total == 1 ? "1 chat" : String.format(Locale.ROOT, "%,d chats", total);
    }
}
