package dev.rebound.ui.model;

/**
 * Something a screen reader should say without the user moving the focus: a retry scheduled, a chain recovered,
 * failed or cancelled, a key switch or a fallback. Each has its own number, so the same words twice are two
 * announcements.
 *
 * @param number increases with every announcement of a chat
 * @param text what to say
 */
public record Announcement(long number, String text) {}
