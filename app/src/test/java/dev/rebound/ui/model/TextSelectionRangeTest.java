package dev.rebound.ui.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.ui.model.TextSelection.Spot;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TextSelectionRangeTest {
    private final TextSelection selection = new TextSelection();

    @Test
    void spotsOrderByPartThenBlockThenCharacter() {
        assertThat(new Spot(0, 3, 50)).isLessThan(new Spot(1, 0, 0));
        assertThat(new Spot(1, 2, 9)).isLessThan(new Spot(1, 3, 0));
        assertThat(new Spot(1, 3, 4)).isLessThan(new Spot(1, 3, 5));
        assertThat(Spot.START).isLessThan(new Spot(0, 0, 1));
        assertThat(new Spot(500, 500, 500)).isLessThan(Spot.END);
    }

    @Test
    void aBackwardDragHasItsFocusAsStart() {
        UserItem prompt = new UserItem("hello world");
        selection.select(prompt, new Spot(0, 0, 8), new Spot(0, 0, 2));

        TextSelection.Range range = selection.range();
        assertThat(range.start()).isEqualTo(new Spot(0, 0, 2));
        assertThat(range.end()).isEqualTo(new Spot(0, 0, 8));
        assertThat(range.anchor()).isEqualTo(new Spot(0, 0, 8));
        assertThat(selection.hasSelection()).isTrue();
    }

    @Test
    void anEmptyRangeIsAPlaceNotASelection() {
        selection.select(new UserItem("a"), new Spot(0, 0, 1), new Spot(0, 0, 1));

        assertThat(selection.range()).isNotNull();
        assertThat(selection.hasSelection()).isFalse();
        selection.clear();
        assertThat(selection.range()).isNull();
    }

    @Test
    void twoEqualPromptsAreTwoMessages() {
        UserItem first = new UserItem("same words");
        UserItem second = new UserItem("same words");
        List<TextSelection.Range> seen = new ArrayList<>();
        selection.rangeProperty().addListener((obs, old, now) -> seen.add(now));

        selection.select(first, Spot.START, new Spot(0, 0, 4));
        selection.select(second, Spot.START, new Spot(0, 0, 4));

        assertThat(seen).hasSize(2);
        assertThat(selection.range().in(second)).isTrue();
        assertThat(selection.range().in(first)).isFalse();
    }

    @Test
    void selectingTheSameRangeAgainChangesNothing() {
        UserItem prompt = new UserItem("x y");
        List<TextSelection.Range> seen = new ArrayList<>();
        selection.rangeProperty().addListener((obs, old, now) -> seen.add(now));

        selection.select(prompt, Spot.START, new Spot(0, 0, 1));
        selection.select(prompt, Spot.START, new Spot(0, 0, 1));

        assertThat(seen).hasSize(1);
    }
}
