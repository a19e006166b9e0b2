package dev.gpugen.compat;

import java.time.YearMonth;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A data-center driver branch such as R580, with its lifecycle (NVIDIA driver lifecycle and
 * supported-drivers pages).
 *
 * @param name the branch name, e.g. {@code R580}
 * @param number the branch number, e.g. 580; the major part of every driver version in it
 * @param type production, long-term support or new-feature branch
 * @param status whether the sources list the branch as supported or ended
 * @param endOfLife the end-of-life month, where the sources give one
 * @param maxCudaMajor the newest CUDA major the branch runs without the forward-compatibility
 *     package, where known
 * @param note a caveat for reviewers (e.g. a conflicting or derived value), if any
 * @param sources the URLs the values come from
 */
public record DriverBranch(
    String name,
    int number,
    Type type,
    Status status,
    Optional<YearMonth> endOfLife,
    OptionalInt maxCudaMajor,
    Optional<String> note,
    List<String> sources)
    implements CompatRow {

  /** How NVIDIA classifies a branch. */
  public enum Type {
    /** Production branch: qualified for production, fixes for up to a year. */
    PRODUCTION,
    /** Long-term support branch: a production branch supported for about three years. */
    LTSB,
    /** New-feature branch: for early adopters, short-lived; not for production nodes. */
    NEW_FEATURE
  }

  /** Lifecycle status as the sources state it. */
  public enum Status {
    /** Listed as supported (it may still have an {@link #endOfLife()} month that has passed). */
    SUPPORTED,
    /** Listed among the branches that have reached end of life: no security fixes. */
    END_OF_LIFE,
    /** The sources do not say. */
    UNKNOWN
  }

  public DriverBranch {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(endOfLife, "endOfLife");
    Objects.requireNonNull(maxCudaMajor, "maxCudaMajor");
    Objects.requireNonNull(note, "note");
    sources = List.copyOf(sources);
    if (!name.equals("R" + number)) {
      throw new IllegalArgumentException(
          "branch name " + name + " does not match number " + number);
    }
  }

  /**
   * Whether the branch is out of support in month {@code asOf}: listed as ended, or past its
   * end-of-life month. The caller chooses the month, so lint stays deterministic.
   */
  public boolean isEndOfLife(YearMonth asOf) {
    return status == Status.END_OF_LIFE || endOfLife.map(asOf::isAfter).orElse(false);
  }

  @Override
  public String key() {
    return name;
  }
}
