package dev.rebound.json;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rebound.api.AgentEnd;
import dev.rebound.api.AgentStart;
import dev.rebound.api.AssistantMessage;
import dev.rebound.api.ChatMessage;
import dev.rebound.api.ContentBlock;
import dev.rebound.api.MessageEnd;
import dev.rebound.api.MessageStart;
import dev.rebound.api.MessageUpdate;
import dev.rebound.api.ModelChanged;
import dev.rebound.api.Notice;
import dev.rebound.api.SessionEvent;
import dev.rebound.api.UserMessage;

/**
 * The JSON form of the API records, shared by RPC mode and (later) the session files: events carry a {@code type}
 * field, messages a {@code role}, content blocks a {@code type}. The API module stays free of Jackson: the type
 * information is attached here through mix-ins.
 */
public final class WireJson {
    private final ObjectMapper mapper;

    public WireJson() {
        this.mapper = Json.newMapper();
        mapper.addMixIn(SessionEvent.class, EventMixin.class);
        mapper.addMixIn(ChatMessage.class, MessageMixin.class);
        mapper.addMixIn(ContentBlock.class, ContentMixin.class);
    }

    /** The configured mapper, for reading and writing the API records. */
    public ObjectMapper mapper() {
        return mapper;
    }

    /** An event as its JSON object, {@code type} first. */
    public ObjectNode event(SessionEvent event) {
        return mapper.valueToTree(event);
    }

    /** A message as its JSON object, {@code role} first. */
    public ObjectNode message(ChatMessage message) {
        return mapper.valueToTree(message);
    }

    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "type")
    @JsonSubTypes({
        @JsonSubTypes.Type(value = AgentStart.class, name = "agent_start"),
        @JsonSubTypes.Type(value = MessageStart.class, name = "message_start"),
        @JsonSubTypes.Type(value = MessageUpdate.class, name = "message_update"),
        @JsonSubTypes.Type(value = MessageEnd.class, name = "message_end"),
        @JsonSubTypes.Type(value = AgentEnd.class, name = "agent_end"),
        @JsonSubTypes.Type(value = ModelChanged.class, name = "model_changed"),
        @JsonSubTypes.Type(value = Notice.class, name = "notice")
    })
    private interface EventMixin {
    }

    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "role")
    @JsonSubTypes({
        @JsonSubTypes.Type(value = UserMessage.class, name = "user"),
        @JsonSubTypes.Type(value = AssistantMessage.class, name = "assistant")
    })
    private interface MessageMixin {
    }

    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "type")
    @JsonSubTypes({
        @JsonSubTypes.Type(value = ContentBlock.Text.class, name = "text"),
        @JsonSubTypes.Type(value = ContentBlock.Thinking.class, name = "thinking"),
        @JsonSubTypes.Type(value = ContentBlock.ToolCall.class, name = "toolCall")
    })
    private interface ContentMixin {
    }
}
