package dev.rebound.settings;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * JSON Merge Patch (RFC 7386): an object patch merges member by member, a {@code null} member deletes, anything else
 * (arrays included) replaces. Existing members keep their order; new ones are appended.
 */
public final class JsonMergePatch {
    private JsonMergePatch() {}

    /**
     * Applies a patch. Neither argument is modified.
     *
     * @param target the document to patch; null or missing counts as absent
     * @param patch the merge patch
     * @return the patched document, a new tree
     */
    public static JsonNode apply(JsonNode target, JsonNode patch) {
        return merge(target == null ? null : target.deepCopy(), patch);
    }

    /** Merges into {@code target}, which this class owns and may change. */
    private static JsonNode merge(JsonNode target, JsonNode patch) {
        if (patch == null || patch.isMissingNode()) {
            return target == null ? NullNode.getInstance() : target;
        }
        if (!patch.isObject()) {
            return patch.deepCopy();
        }
        ObjectNode result =
                target != null && target.isObject() ? (ObjectNode) target : JsonNodeFactory.instance.objectNode();
        for (Map.Entry<String, JsonNode> member : patch.properties()) {
            if (member.getValue().isNull()) {
                result.remove(member.getKey());
            } else {
                result.set(member.getKey(), merge(result.get(member.getKey()), member.getValue()));
            }
        }
        return result;
    }
}
