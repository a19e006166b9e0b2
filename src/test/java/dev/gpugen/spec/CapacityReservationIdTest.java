package dev.gpugen.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.Cli;
import dev.gpugen.Golden;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * pools[].capacityReservationId takes only what EC2 issues: "cr-" and 17 lowercase hexadecimal
 * digits (CapacityReservationId, e.g. cr-1234567890abcdef0 in
 * https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_CapacityReservation.html); anything
 * else is refused at its position before EC2 would refuse the launch.
 */
class CapacityReservationIdTest {
  @TempDir Path tmp;

  private Cli validate(String id) throws Exception {
    String clean =
        Files.readString(
            Golden.repo()
                .resolve("src/test/resources/diagnostics/aws-spot-with-reservation/clean.yaml"));
    assertTrue(clean.contains("cr-0123456789abcdef0"), clean);
    Path spec =
        Files.writeString(tmp.resolve("spec.yaml"), clean.replace("cr-0123456789abcdef0", id));
    return Cli.run("validate", spec.toString());
  }

  @Test
  void onlyCrAndSeventeenHexDigitsIsAnId() throws Exception {
    assertEquals(0, validate("cr-0a1b2c3d4e5f60718").exit());
    for (String bad :
        new String[] {
          "cr-12345",
          "cr-0A1B2C3D4E5F60718",
          "cr-0a1b2c3d4e5f607189",
          "0a1b2c3d4e5f60718",
          "cb-0a1b2c3d4e5f60718"
        }) {
      Cli r = validate(bad);
      assertEquals(1, r.exit(), bad + ": " + r);
      assertTrue(
          r.out().contains(":22:28: error[spec-value]: pools[0].capacityReservationId is "),
          r.toString());
      // The form, or (one digit too many) the length: both name what an id is.
      assertTrue(
          r.out().contains("cr- and 17 hexadecimal digits") || r.out().contains("at most 20"),
          r.toString());
    }
  }
}
