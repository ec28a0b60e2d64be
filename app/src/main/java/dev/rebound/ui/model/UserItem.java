package dev.rebound.ui.model;

/** A prompt the user sent. */
public record UserItem(String text) implements ChatItem, ChatRow {}
