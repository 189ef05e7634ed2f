import sys, time, simpy
events, processes = int(sys.argv[1]), int(sys.argv[2])
count = 0
def proc(env, i):
    global count
    period = 1 + (i % 7) / 1000
    while count < events:
        yield env.timeout(period)
        count += 1
env = simpy.Environment()
for i in range(processes):
    env.process(proc(env, i))
t0 = time.perf_counter()
while count < events:
    env.step()
print(count / (time.perf_counter() - t0))
