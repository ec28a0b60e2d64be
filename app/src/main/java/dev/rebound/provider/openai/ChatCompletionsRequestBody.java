package dev.rebound.provider.openai;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rebound.transcript.AssistantMessage;
import dev.rebound.transcript.ChatMessage;
import dev.rebound.transcript.UserMessage;
import java.util.ArrayList;
import java.util.List;

/**
 * The body of a streaming Chat Completions request: {@code {model, messages, stream: true, stream_options:
 * {include_usage: true}}}. User messages become {@code user} messages, assistant messages {@code assistant} messages
 * with their answer text; an assistant message without text (thinking only, a failure) is left out. A system prompt
 * goes first as a {@code system} message (every compatible server takes that role; OpenAI maps it to {@code
 * developer} for its reasoning models itself).
 *
 * @param model the model id
 * @param messages the conversation, oldest first
 */
record ChatCompletionsRequestBody(String model, List<WireMessage> messages) {

    ChatCompletionsRequestBody {
        messages = List.copyOf(messages);
    }

    /** One message as the API takes it. */
    record WireMessage(String role, String content) {}

    /** The body for a model and a runtime context. */
    static ChatCompletionsRequestBody of(String model, List<ChatMessage> context) {
        return of(model, "", context);
    }

    /** The body for a model, a system prompt (empty for none) and a runtime context. */
    static ChatCompletionsRequestBody of(String model, String systemPrompt, List<ChatMessage> context) {
        List<WireMessage> messages = new ArrayList<>(context.size() + 1);
        if (systemPrompt != null && !systemPrompt.isEmpty()) {
            messages.add(new WireMessage("system", systemPrompt));
        }
        for (ChatMessage message : context) {
            switch (message) {
                case UserMessage user -> messages.add(new WireMessage("user", user.text()));
                case AssistantMessage assistant -> {
                    String text = assistant.text();
                    if (!text.isEmpty()) {
                        messages.add(new WireMessage("assistant", text));
                    }
                }
            }
        }
        return new ChatCompletionsRequestBody(model, messages);
    }

    /** The JSON text to send. */
    String toJson(ObjectMapper mapper) {
        ObjectNode root = mapper.createObjectNode();
        root.put("model", model);
        ArrayNode array = root.putArray("messages");
        for (WireMessage message : messages) {
            array.addObject().put("role", message.role()).put("content", message.content());
        }
        root.put("stream", true);
        root.putObject("stream_options").put("include_usage", true);
        return root.toString();
    }
}
