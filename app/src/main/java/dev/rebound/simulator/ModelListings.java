package dev.rebound.simulator;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The model lists the simulator serves: one model, {@value SimulatorServer#MODEL_ID}, in each API's shape. */
final class ModelListings {
    private ModelListings() {}

    /** OpenAI's {@code GET /v1/models}: {@code {"object":"list","data":[{"id",…}]}}. */
    static String openAi(ObjectMapper mapper) {
        ObjectNode root = mapper.createObjectNode().put("object", "list");
        root.putArray("data")
                .addObject()
                .put("id", SimulatorServer.MODEL_ID)
                .put("object", "model")
                .put("created", 1_764_547_200L)
                .put("owned_by", "rebound");
        return root.toString();
    }

    /** Gemini's {@code GET /v1beta/models}: {@code {"models":[{"name":"models/…",…}]}}. */
    static String gemini(ObjectMapper mapper) {
        ObjectNode root = mapper.createObjectNode();
        ObjectNode model = root.putArray("models")
                .addObject()
                .put("name", "models/" + SimulatorServer.MODEL_ID)
                .put("version", "001")
                .put("displayName", "Rebound Simulator")
                .put("description", "Rebound's offline fault simulator; it answers under any model name.")
                .put("inputTokenLimit", 128_000)
                .put("outputTokenLimit", 8_192);
        model.putArray("supportedGenerationMethods").add("generateContent");
        return root.toString();
    }
}
