package dev.rebound.ui.settings;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import javafx.beans.property.Property;
import javafx.beans.value.ChangeListener;
import javafx.beans.value.ObservableValue;

/**
 * The bindings and listeners a view made to view-model properties, released together when the view goes, so a closed
 * settings window leaves nothing attached to models that outlive it.
 */
final class Subscriptions {
    private final List<Runnable> releases = new ArrayList<>();

    <T> void bindBidirectional(Property<T> view, Property<T> model) {
        view.bindBidirectional(model);
        releases.add(() -> view.unbindBidirectional(model));
    }

    <T> void bind(Property<T> view, ObservableValue<? extends T> model) {
        view.bind(model);
        releases.add(view::unbind);
    }

    <T> void listen(ObservableValue<T> model, Consumer<T> onChange) {
        ChangeListener<T> listener = (obs, old, now) -> onChange.accept(now);
        model.addListener(listener);
        releases.add(() -> model.removeListener(listener));
    }

    /** Runs {@code release} when these subscriptions are released. */
    void onRelease(Runnable release) {
        releases.add(release);
    }

    /** Releases everything, newest first. */
    void release() {
        for (int i = releases.size() - 1; i >= 0; i--) {
            releases.get(i).run();
        }
        releases.clear();
    }
}
