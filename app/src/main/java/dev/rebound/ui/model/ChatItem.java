package dev.rebound.ui.model;

/** One row of the chat list: a prompt, a reply (possibly still streaming or failed), or a small notice. */
public sealed interface ChatItem permits UserItem, AssistantItem, NoticeItem {}
