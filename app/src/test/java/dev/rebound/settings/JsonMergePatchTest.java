package dev.rebound.settings;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.rebound.json.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JsonMergePatchTest {
    private static final ObjectMapper MAPPER = Json.newMapper();

    private static JsonNode json(String text) throws Exception {
        return MAPPER.readTree(text.replace('\'', '"'));
    }

    /** The examples of RFC 7386, appendix A. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '`',
            value = {
                "{'a':'b'}                | {'a':'c'}           | {'a':'c'}",
                "{'a':'b'}                | {'b':'c'}           | {'a':'b','b':'c'}",
                "{'a':'b'}                | {'a':null}          | {}",
                "{'a':'b','b':'c'}        | {'a':null}          | {'b':'c'}",
                "{'a':['b']}              | {'a':'c'}           | {'a':'c'}",
                "{'a':'c'}                | {'a':['b']}         | {'a':['b']}",
                "{'a':{'b':'c'}}          | {'a':{'b':'d','c':null}} | {'a':{'b':'d'}}",
                "{'a':[{'b':'c'}]}        | {'a':[1]}           | {'a':[1]}",
                "['a','b']                | ['c','d']           | ['c','d']",
                "{'a':'b'}                | ['c']               | ['c']",
                "{'a':'foo'}              | null                | null",
                "{'a':'foo'}              | 'bar'               | 'bar'",
                "{'e':null}               | {'a':1}             | {'e':null,'a':1}",
                "[1,2]                    | {'a':'b','c':null}  | {'a':'b'}",
                "{}                       | {'a':{'bb':{'ccc':null}}} | {'a':{'bb':{}}}"
            })
    void followsTheExamplesOfRfc7386(String target, String patch, String expected) throws Exception {
        assertThat(JsonMergePatch.apply(json(target), json(patch))).isEqualTo(json(expected));
    }

    @Test
    void nullDeletesNestedObjectsMergeAndArraysAreReplacedWhole() throws Exception {
        JsonNode target = json("{'retry':{'maxRetries':3,'fallbackChains':{'default':['a/b','c/d']}},'model':'a/b'}");
        JsonNode patch = json("{'retry':{'baseDelayMs':100,'fallbackChains':{'default':['e/f']}},'model':null}");

        assertThat(JsonMergePatch.apply(target, patch))
                .isEqualTo(json("{'retry':{'maxRetries':3,'fallbackChains':{'default':['e/f']},'baseDelayMs':100}}"));
    }

    @Test
    void changesNeitherTheTargetNorThePatch() throws Exception {
        JsonNode target = json("{'a':{'b':1}}");
        JsonNode patch = json("{'a':{'b':null,'c':[1]}}");

        JsonNode result = JsonMergePatch.apply(target, patch);
        ((ArrayNode) result.get("a").get("c")).add(2);

        assertThat(target).isEqualTo(json("{'a':{'b':1}}"));
        assertThat(patch).isEqualTo(json("{'a':{'b':null,'c':[1]}}"));
    }

    @Test
    void keepsTheOrderOfExistingMembersAndAppendsNewOnes() throws Exception {
        JsonNode result = JsonMergePatch.apply(json("{'z':1,'a':2}"), json("{'m':3,'z':4}"));

        assertThat(result.toString()).isEqualTo("{\"z\":4,\"a\":2,\"m\":3}");
    }
}
