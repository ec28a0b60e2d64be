package dev.rebound.ui.settings.model;

import dev.rebound.files.FileProblem;
import java.util.List;
import java.util.Optional;

/** The validator's problems of one candidate edit, looked up by key path. */
record Problems(List<FileProblem> all) {
    Problems {
        all = List.copyOf(all);
    }

    /** The first error exactly at that key path, for the field there. */
    Optional<String> errorAt(String keyPath) {
        return all.stream()
                .filter(p -> p.isError() && p.keyPath().equals(keyPath))
                .map(FileProblem::message)
                .findFirst();
    }

    /** Every problem at that path or below it ({@code providers.x} covers {@code providers.x.models[0].id}). */
    List<FileProblem> under(String keyPath) {
        return all.stream()
                .filter(p -> p.keyPath().equals(keyPath)
                        || p.keyPath().startsWith(keyPath + ".")
                        || p.keyPath().startsWith(keyPath + "["))
                .toList();
    }
}
