package dev.gpugen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpugen.failure.EnvironmentFailure;
import dev.gpugen.failure.InternalFailure;
import dev.gpugen.failure.InvalidInput;
import org.junit.jupiter.api.Test;

/** README's exit code table, by kind of failure. */
class ExitCodesTest {
  @Test
  void eachKindHasItsDocumentedCode() {
    assertEquals(1, ExitCodes.of(new InvalidInput("the spec is invalid")));
    assertEquals(2, ExitCodes.of(InvalidInput.usage("unknown option")));
    assertEquals(3, ExitCodes.of(new EnvironmentFailure("disk full")));
    assertEquals(4, ExitCodes.of(new InternalFailure("a template failed")));
    assertEquals(5, ExitCodes.STEP_FAILED, "README: a step of up or down failed");
    assertEquals(2, ExitCodes.of(InvalidInput.usage("unknown option").prefixed("drift: ")));
  }
}
