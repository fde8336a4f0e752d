import { CircuitBreaker } from './circuit-breaker';

describe('CircuitBreaker', () => {
  let clock: number;
  const breaker = () => new CircuitBreaker({ failureThreshold: 3, coolDownMillis: 1_000 }, () => clock);

  beforeEach(() => {
    clock = 0;
  });

  it('stays closed below the threshold, and a success starts the count again', () => {
    const circuit = breaker();
    circuit.failed();
    circuit.failed();
    circuit.succeeded();
    circuit.failed();
    circuit.failed();
    expect(circuit.state).toBe('closed');
    expect(circuit.admit()).toBe(true);
  });

  it('opens after the threshold in a row and refuses until the cool-down has passed', () => {
    const circuit = breaker();
    for (let i = 0; i < 3; i += 1) circuit.failed();
    expect(circuit.state).toBe('open');
    expect(circuit.admit()).toBe(false);
    clock = 400;
    expect(circuit.retryInMillis).toBe(600);
    expect(circuit.admit()).toBe(false);
  });

  it('lets one trial through after the cool-down: its success closes the circuit', () => {
    const circuit = breaker();
    for (let i = 0; i < 3; i += 1) circuit.failed();
    clock = 1_000;
    expect(circuit.admit()).toBe(true);
    expect(circuit.state).toBe('half-open');
    expect(circuit.admit()).toBe(false); // the trial is still running
    circuit.succeeded();
    expect(circuit.state).toBe('closed');
    expect(circuit.admit()).toBe(true);
  });

  it('opens again for a whole cool-down when the trial fails, whatever the count', () => {
    const circuit = breaker();
    for (let i = 0; i < 3; i += 1) circuit.failed();
    clock = 1_500;
    expect(circuit.admit()).toBe(true);
    circuit.failed();
    expect(circuit.state).toBe('open');
    clock = 2_400;
    expect(circuit.admit()).toBe(false);
    clock = 2_500;
    expect(circuit.admit()).toBe(true);
  });
});
