package dev.rebound.json;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.cfg.MapperConfig;
import com.fasterxml.jackson.databind.introspect.AnnotatedClass;
import com.fasterxml.jackson.databind.introspect.JacksonAnnotationIntrospector;
import com.fasterxml.jackson.databind.jsontype.NamedType;
import com.fasterxml.jackson.databind.jsontype.TypeResolverBuilder;
import com.fasterxml.jackson.databind.jsontype.impl.StdTypeResolverBuilder;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rebound.event.AutoRetryStart;
import dev.rebound.event.RetryAttempt;
import dev.rebound.event.SessionEvent;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.ChatMessage;
import dev.rebound.transcript.ContentBlock;
import dev.rebound.transcript.UserMessage;
import java.util.ArrayList;
import java.util.List;

/**
 * The JSON form of the API records, shared by RPC mode and the session files: events carry a {@code type} field,
 * messages a {@code role}, content blocks a {@code type}. The API module stays free of Jackson, and the type
 * information is given here in code, not by annotations (mix-ins): Jackson reads an annotation through a proxy class
 * the JDK generates at run time, which the AOT cache cannot hold, and the seven it took cost every start ~27 ms of CPU
 * (docs/startup.md).
 */
public final class WireJson {
    private final ObjectMapper mapper;

    public WireJson() {
        this.mapper = Json.newMapper();
        mapper.setAnnotationIntrospector(new TypeIds());
        for (Class<?> event : SessionEvent.class.getPermittedSubclasses()) {
            mapper.registerSubtypes(new NamedType(event, typeName(event)));
        }
        mapper.registerSubtypes(
                new NamedType(UserMessage.class, "user"),
                new NamedType(AssistantMessage.class, "assistant"),
                new NamedType(ContentBlock.Text.class, "text"),
                new NamedType(ContentBlock.Thinking.class, "thinking"),
                new NamedType(ContentBlock.ToolCall.class, "toolCall"));
        // Records whose null fields mean something ({@code credential: null}: no credential) write them.
        JsonInclude.Value nullsWritten =
                JsonInclude.Value.construct(JsonInclude.Include.ALWAYS, JsonInclude.Include.ALWAYS);
        mapper.configOverride(AutoRetryStart.class).setInclude(nullsWritten);
        mapper.configOverride(RetryAttempt.class).setInclude(nullsWritten);
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

    /**
     * The type property of each sealed hierarchy, and of every type below it: Jackson asks for the base type of a
     * value, and for a concrete record when it is written on its own.
     */
    private static final class TypeIds extends JacksonAnnotationIntrospector {
        /** The three hierarchies; no API record belongs to two of them (an order would be needed then). */
        private static final List<java.util.Map.Entry<Class<?>, JsonTypeInfo.Value>> PROPERTIES = List.of(
                java.util.Map.entry(SessionEvent.class, property("type")),
                java.util.Map.entry(ChatMessage.class, property("role")),
                java.util.Map.entry(ContentBlock.class, property("type")));

        private static JsonTypeInfo.Value property(String name) {
            return JsonTypeInfo.Value.construct(
                    JsonTypeInfo.Id.NAME, JsonTypeInfo.As.PROPERTY, name, null, false, null);
        }

        @Override
        public TypeResolverBuilder<?> findTypeResolver(MapperConfig<?> config, AnnotatedClass ac, JavaType baseType) {
            for (java.util.Map.Entry<Class<?>, JsonTypeInfo.Value> base : PROPERTIES) {
                if (base.getKey().isAssignableFrom(baseType.getRawClass())) {
                    return new StdTypeResolverBuilder().init(base.getValue(), null);
                }
            }
            return super.findTypeResolver(config, ac, baseType);
        }
    }
}
