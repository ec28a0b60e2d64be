package dev.rebound.ui.model;

/**
 * One row of the chat list as the view shows it: a prompt, a notice, or one part of a reply. A long reply is several
 * rows ({@link ReplyPart}) so the list lays out and styles only the part that still grows.
 */
public sealed interface ChatRow permits UserItem, NoticeItem, ReplyPart {}
