package dev.gpugen.inventory;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * An immutable map with string keys in their natural order, held in two arrays: an inventory of
 * 16,000 hosts has 16,000 of these with about 20 variables each, and a TreeMap per host cost more
 * in entries and key comparisons than everything else the builder does.
 *
 * @param <V> the values
 */
final class SortedArrayMap<V> extends AbstractMap<String, V> implements SortedMap<String, V> {
  private final String[] keys;
  private final Object[] values;

  private SortedArrayMap(String[] keys, Object[] values) {
    this.keys = keys;
    this.values = values;
  }

  /**
   * The map of {@code keys} to {@code values}: the keys sorted (natural order) and distinct, and
   * the arrays not used by the caller afterwards.
   *
   * @throws IllegalArgumentException if the keys are not sorted and distinct
   */
  static <V> SortedArrayMap<V> ofSorted(String[] keys, Object[] values) {
    if (keys.length != values.length) {
      throw new IllegalArgumentException("keys and values differ in length");
    }
    for (int i = 1; i < keys.length; i++) {
      if (keys[i - 1].compareTo(keys[i]) >= 0) {
        throw new IllegalArgumentException("keys not sorted and distinct at " + i);
      }
    }
    return new SortedArrayMap<>(keys, values);
  }

  /**
   * The map of the slots of {@code slotValues} that are not null, keyed by the same slot of {@code
   * slotKeys} (which {@link #checkSorted} accepted once).
   */
  static <V> SortedArrayMap<V> ofSlots(String[] slotKeys, Object[] slotValues) {
    int n = 0;
    for (Object v : slotValues) {
      if (v != null) {
        n++;
      }
    }
    String[] k = new String[n];
    Object[] v = new Object[n];
    for (int i = 0, j = 0; i < slotValues.length; i++) {
      if (slotValues[i] != null) {
        k[j] = slotKeys[i];
        v[j++] = slotValues[i];
      }
    }
    return new SortedArrayMap<>(k, v);
  }

  /** {@code keys}, if sorted and distinct. */
  static String[] checkSorted(String[] keys) {
    for (int i = 1; i < keys.length; i++) {
      if (keys[i - 1].compareTo(keys[i]) >= 0) {
        throw new IllegalArgumentException("keys not sorted and distinct at " + keys[i]);
      }
    }
    return keys;
  }

  private int index(Object key) {
    return key instanceof String s ? Arrays.binarySearch(keys, s) : -1;
  }

  @Override
  public int size() {
    return keys.length;
  }

  @Override
  public boolean containsKey(Object key) {
    return index(key) >= 0;
  }

  @Override
  @SuppressWarnings("unchecked")
  public V get(Object key) {
    int i = index(key);
    return i >= 0 ? (V) values[i] : null;
  }

  @Override
  public Comparator<? super String> comparator() {
    return null;
  }

  @Override
  public String firstKey() {
    if (keys.length == 0) {
      throw new NoSuchElementException();
    }
    return keys[0];
  }

  @Override
  public String lastKey() {
    if (keys.length == 0) {
      throw new NoSuchElementException();
    }
    return keys[keys.length - 1];
  }

  // Views of a part are rare (nothing in gpugen asks for one): an unmodifiable copy's.
  @Override
  public SortedMap<String, V> subMap(String fromKey, String toKey) {
    return Collections.unmodifiableSortedMap(new TreeMap<>(this).subMap(fromKey, toKey));
  }

  @Override
  public SortedMap<String, V> headMap(String toKey) {
    return Collections.unmodifiableSortedMap(new TreeMap<>(this).headMap(toKey));
  }

  @Override
  public SortedMap<String, V> tailMap(String fromKey) {
    return Collections.unmodifiableSortedMap(new TreeMap<>(this).tailMap(fromKey));
  }

  @Override
  public Set<Entry<String, V>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public Iterator<Entry<String, V>> iterator() {
        return new Iterator<>() {
          private int i;

          @Override
          public boolean hasNext() {
            return i < keys.length;
          }

          @Override
          @SuppressWarnings("unchecked")
          public Entry<String, V> next() {
            if (i >= keys.length) {
              throw new NoSuchElementException();
            }
            Entry<String, V> e = new SimpleImmutableEntry<>(keys[i], (V) values[i]);
            i++;
            return e;
          }
        };
      }

      @Override
      public int size() {
        return keys.length;
      }
    };
  }
}
