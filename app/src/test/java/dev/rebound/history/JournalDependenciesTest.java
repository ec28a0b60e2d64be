package dev.rebound.history;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** What the session-file package may depend on, and why. */
class JournalDependenciesTest {
    private static final JavaClasses HISTORY = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.rebound.history");

    @Test
    void sessionFilesNeverSeeCredentials() {
        noClasses()
                .that()
                .resideInAPackage("dev.rebound.history..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.rebound.auth..")
                .because("session files carry credential labels only; a key type within reach of the codec could end "
                        + "up in a file that is kept for years")
                .check(HISTORY);
    }

    @Test
    void sessionFilesDoNotDependOnTheirUsers() {
        noClasses()
                .that()
                .resideInAPackage("dev.rebound.history..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "dev.rebound.session..", "dev.rebound.rpc..", "dev.rebound.app..", "dev.rebound.ui..")
                .because("the session core, RPC mode and the UI use the session files; a dependency back would be a "
                        + "cycle")
                .check(HISTORY);
    }
}
