package dev.rebound.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The {@code inStream} field of an {@code overload} step, read and written like every other field. */
class OverloadScenarioTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void anOverloadIsReportedByStatusUnlessItsStepSaysInStream() throws Exception {
        List<FaultStep> steps = Scenarios.parse(
                JSON.readTree(
                        "[\"overload\", {\"fault\": \"overload\", \"inStream\": true}, {\"fault\": \"overload\", \"inStream\": false}]"));

        assertThat(steps)
                .extracting(FaultStep::fault)
                .containsExactly(new Fault.Overload(), new Fault.Overload(true), new Fault.Overload(false));
        assertThat(Scenarios.withDefaults("overload")).isEqualTo(new Fault.Overload(false));
    }

    @Test
    void onlyAnOverloadInStreamWritesTheFieldAndItReadsBack() throws Exception {
        List<FaultStep> steps = List.of(FaultStep.any(new Fault.Overload()), FaultStep.any(new Fault.Overload(true)));

        String json = Scenarios.toJson(steps).toString();

        assertThat(json).isEqualTo("[{\"fault\":\"overload\"},{\"fault\":\"overload\",\"inStream\":true}]");
        assertThat(Scenarios.parse(JSON.readTree(json))).isEqualTo(steps);
    }

    @Test
    void anInStreamThatIsNotABooleanIsRefusedWithItsPlace() {
        assertThatThrownBy(() -> Scenarios.parse(JSON.readTree("[{\"fault\": \"overload\", \"inStream\": \"yes\"}]")))
                .isInstanceOf(ScenarioException.class)
                .hasMessageContaining("steps[0].inStream: must be true or false (got \"yes\")");
    }
}
