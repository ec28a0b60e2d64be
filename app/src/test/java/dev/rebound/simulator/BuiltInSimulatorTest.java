package dev.rebound.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class BuiltInSimulatorTest {

    @Test
    void opensNoPortUntilItsBaseUrlIsAskedForAndStopsForGoodOnClose() throws Exception {
        BuiltInSimulator simulator = new BuiltInSimulator(1);
        simulator.faults().append(List.of(FaultStep.any(new Fault.Overload())));
        simulator.tokensPerSecond(0);

        assertThat(simulator.runningUrl()).isNull();

        String url = simulator.baseUrl();
        assertThat(simulator.runningUrl()).isEqualTo(url).startsWith("http://127.0.0.1:");
        try (HttpClient http = HttpClient.newHttpClient()) {
            HttpResponse<String> models = http.send(
                    HttpRequest.newBuilder(URI.create(url + "/models")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(models.body()).contains("rebound-simulator");
        }
        simulator.close();
        assertThat(simulator.runningUrl()).isNull();
        assertThatThrownBy(simulator::baseUrl).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void clearingTheSimulationEmptiesTheScriptAndRunsTheClearActions() {
        BuiltInSimulator simulator = new BuiltInSimulator(1);
        AtomicInteger lifted = new AtomicInteger();
        simulator.onClear(lifted::incrementAndGet);
        simulator.faults().append(List.of(FaultStep.any(new Fault.Overload())));

        simulator.clearSimulation();

        assertThat(simulator.faults().queued()).isEmpty();
        assertThat(lifted).hasValue(1);
        simulator.close();
    }
}
