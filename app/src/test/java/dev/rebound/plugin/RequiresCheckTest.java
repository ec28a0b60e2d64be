package dev.rebound.plugin;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class RequiresCheckTest {
    private final RequiresCheck snapshot = new RequiresCheck("0.2.0-SNAPSHOT");

    @ParameterizedTest
    @CsvSource({
        "0.1.0-SNAPSHOT, 0.1.0",
        "1.2.3, 1.2.3",
        "2.0.0+build.7, 2.0.0",
        "unknown, 0.0.0",
        "1.2, 0.0.0",
        "10.20.30-rc.1+b5, 10.20.30",
        "1..2, 0.0.0",
        ".1.2, 0.0.0",
        "1.2.3., 0.0.0",
        "1.2.3.4, 0.0.0",
        "1.2.x, 0.0.0",
        "'', 0.0.0",
        "-SNAPSHOT, 0.0.0",
        "' 3.4.5 ', 3.4.5"
    })
    void theSystemVersionIsTheAppVersionWithoutItsQualifier(String app, String system) {
        assertThat(RequiresCheck.systemVersion(app)).isEqualTo(system);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "*", ">=0.2.0", "0.2.0", ">=0.2.0 & <1.0.0", "^0.2"})
    void aSnapshotBuildAcceptsWhatItsReleaseAccepts(String requires) {
        assertThat(snapshot.refusal(requires)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {">=99.0.0", "0.3.0", ">0.2.0", ">=1.0.0 & <2.0.0"})
    void aRequirementAboveTheAppIsRefusedWithBothVersionsNamed(String requires) {
        assertThat(snapshot.refusal(requires))
                .hasValueSatisfying(reason -> assertThat(reason)
                        .contains("requires Rebound " + requires)
                        .contains("this is Rebound 0.2.0-SNAPSHOT (compared as 0.2.0)"));
    }

    @ParameterizedTest
    @ValueSource(strings = {">=0.1.0", "0.1.0", "0.0.9", ">=0.1.0 & <1.0.0", "<1.0.0", "^0.1 || ^0.2", ">=0.0.1"})
    void aPluginThatAlsoAcceptsARebound0Dot1WasBuiltForPluginApi1AndIsRefusedWithWhatToDo(String requires) {
        assertThat(snapshot.refusal(requires))
                .hasValueSatisfying(reason -> assertThat(reason)
                        .contains("looks built for plugin API 1")
                        .contains("Plugin-Requires '" + requires + "'")
                        .contains("rebuild it against plugin-api 2 and require >=0.2.0"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"banana", ">=x.y", ">=1.0.0 &&& <"})
    void anExpressionThatIsNotAVersionRangeIsRefusedAsSuch(String requires) {
        assertThat(snapshot.refusal(requires))
                .hasValueSatisfying(reason -> assertThat(reason).contains("is not a version expression"));
    }

    @ParameterizedTest
    @ValueSource(strings = {">=99.0.0", "banana"})
    void anAppOfUnknownVersionAcceptsEveryPlugin(String requires) {
        assertThat(new RequiresCheck("unknown").refusal(requires)).isEmpty();
    }
}
