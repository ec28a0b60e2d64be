package dev.rebound.ui.view;

/** Opens a link of a reply in the system browser. */
@FunctionalInterface
public interface LinkOpener {
    void open(String url);
}
