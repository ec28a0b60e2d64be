package dev.rebound.json;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.NamedType;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rebound.event.SessionEvent;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.ChatMessage;
import dev.rebound.transcript.ContentBlock;
import dev.rebound.transcript.UserMessage;
import java.util.ArrayList;
import java.util.List;

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
        for (Class<?> event : SessionEvent.class.getPermittedSubclasses()) {
            mapper.registerSubtypes(new NamedType(event, typeName(event)));
        }
        mapper.addMixIn(ChatMessage.class, MessageMixin.class);
        mapper.addMixIn(ContentBlock.class, ContentMixin.class);
        mapper.addMixIn(dev.rebound.event.AutoRetryStart.class, NullsWritten.class);
        mapper.addMixIn(dev.rebound.event.RetryAttempt.class, NullsWritten.class);
    }

    /**
     * The wire type of an event record: its simple name in snake case ({@code AutoRetryStart} → {@code
     * auto_retry_start}), which every event's {@code type()} also returns (a test holds them equal).
     */
    public static String typeName(Class<?> eventClass) {
        return eventClass
                .getSimpleName()
                .replaceAll("([a-z0-9])([A-Z])", "$1_$2")
                .toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * Builds and caches the serializers of the messages and their content blocks (and, with {@code events}, of every
     * event), which Jackson otherwise builds by reflection on first use: ~15 ms for a message, on the thread writing
     * the first line of a chat's file (docs/startup.md). Meant for a background thread at start; the mapper stays
     * usable from any thread meanwhile (a serializer wanted before it is cached is built there, as without this).
     *
     * @throws IllegalStateException when a type has no serializer (a programming error, which a write would meet too)
     */
    public void prepareWriters(boolean events) {
        List<Class<?>> types = new ArrayList<>();
        types.addAll(List.of(ChatMessage.class.getPermittedSubclasses()));
        types.addAll(List.of(ContentBlock.class.getPermittedSubclasses()));
        if (events) {
            types.addAll(List.of(SessionEvent.class.getPermittedSubclasses()));
        }
        // The very lookup a first write makes (by class, with its type id), so that it finds what this leaves.
        SerializerProvider serializers = mapper.getSerializerProviderInstance();
        for (Class<?> type : types) {
            try {
                serializers.findTypedValueSerializer(type, true, null);
            } catch (JsonMappingException e) {
                throw new IllegalStateException("no JSON serializer for " + type.getName(), e);
            }
        }
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

    /** Events carry {@code type}; their names are registered from the sealed hierarchy (see {@link #typeName}). */
    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "type")
    private interface EventMixin {}

    /** Records whose null fields mean something ({@code credential: null}: no credential) write them. */
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.ALWAYS)
    private interface NullsWritten {}

    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "role")
    @JsonSubTypes({
        @JsonSubTypes.Type(value = UserMessage.class, name = "user"),
        @JsonSubTypes.Type(value = AssistantMessage.class, name = "assistant")
    })
    private interface MessageMixin {}

    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "type")
    @JsonSubTypes({
        @JsonSubTypes.Type(value = ContentBlock.Text.class, name = "text"),
        @JsonSubTypes.Type(value = ContentBlock.Thinking.class, name = "thinking"),
        @JsonSubTypes.Type(value = ContentBlock.ToolCall.class, name = "toolCall")
    })
    private interface ContentMixin {}
}
