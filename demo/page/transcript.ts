/** What happened, in order: server questions, the person's answers and the results. Server text as text. */
export function createTranscript(list: HTMLElement): (line: string) => void {
  return (line) => {
    const item = document.createElement("li");
    const time = document.createElement("time");
    time.textContent = new Date().toLocaleTimeString();
    item.append(time, ` ${line}`);
    list.append(item);
    item.scrollIntoView({ block: "nearest" });
  };
}
